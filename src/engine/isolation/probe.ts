import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { testCommandEnvironment } from "./environment.js";
import { findBwrap, jailArgs } from "./jail.js";
import { DEFAULT_LOCALE, type Locale, t } from "../../i18n/index.js";

/** What the jail probe found on this host. */
export interface JailProbe {
  ok: boolean;
  /** e.g. "bubblewrap 0.8.0 (user, pid, ipc, uts namespaces; private /tmp and /proc)". */
  mechanism: string;
  detail: string;
}

const MARK = "codexpi-probe-secret";

/**
 * A real probe, not a version check: a jailed process tries to read a file of the data directory
 * (outside its workspace), to see the prober's processes, and to write its workspace. The jail
 * works when the read and the view fail and the write succeeds.
 */
export async function probeJail(opts: {
  jail: "bwrap" | "off";
  dataDir: string;
  /** The language of `detail` (the operator's, CODEXPI_LOCALE). */
  locale?: Locale;
}): Promise<JailProbe> {
  const say = (key: Parameters<typeof t>[1], params = {}) => t(opts.locale ?? DEFAULT_LOCALE, key, params);
  if (opts.jail === "off")
    return {
      ok: false,
      mechanism: say("cli.jail.none"),
      detail: say("cli.jail.off"),
    };
  const bwrap = findBwrap();
  if (!bwrap)
    return {
      ok: false,
      mechanism: say("cli.jail.none"),
      detail: say("cli.jail.missing"),
    };
  const version = await execa(bwrap, ["--version"], { reject: false, timeout: 5_000 }).then(
    (r) => r.stdout.trim() || "bubblewrap",
  );
  const mechanism = say("cli.jail.mechanism", { version });
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const secret = path.join(opts.dataDir, `.jail-probe-${process.pid}-${Date.now()}`);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-jail-probe-"));
  fs.writeFileSync(secret, MARK);
  try {
    const script = `cat ${JSON.stringify(secret)} 2>&1; test -e /proc/${process.pid}/environ && echo SAW-PARENT; echo written > probe.txt; echo done`;
    const r = await execa(
      bwrap,
      jailArgs(
        {
          mounts: [{ source: workspace, writable: true }],
          cwd: workspace,
          network: false,
          nestedSandbox: false,
        },
        ["/bin/sh", "-c", script],
      ),
      {
        env: testCommandEnvironment(process.env, { HOME: "/tmp" }),
        extendEnv: false,
        reject: false,
        timeout: 15_000,
        all: true,
      },
    );
    const output = String(r.all ?? "");
    if (r.exitCode !== 0 || !output.includes("done"))
      return {
        ok: false,
        mechanism,
        detail: say("cli.jail.no_start", { error: output.trim().split("\n").pop() || String(r.exitCode) }),
      };
    if (output.includes(MARK)) return { ok: false, mechanism, detail: say("cli.jail.read_outside") };
    if (output.includes("SAW-PARENT")) return { ok: false, mechanism, detail: say("cli.jail.saw_parent") };
    if (!fs.existsSync(path.join(workspace, "probe.txt")))
      return { ok: false, mechanism, detail: say("cli.jail.no_write") };
    return {
      ok: true,
      mechanism,
      detail: say("cli.jail.ok"),
    };
  } finally {
    fs.rmSync(secret, { force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}
