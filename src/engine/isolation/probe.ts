import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { testCommandEnvironment } from "./environment.js";
import { findBwrap, jailArgs } from "./jail.js";

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
export async function probeJail(opts: { jail: "bwrap" | "off"; dataDir: string }): Promise<JailProbe> {
  if (opts.jail === "off")
    return {
      ok: false,
      mechanism: "none",
      detail: "CODEXPI_JAIL=off: agents and test commands are NOT isolated",
    };
  const bwrap = findBwrap();
  if (!bwrap)
    return {
      ok: false,
      mechanism: "none",
      detail: "bubblewrap is not installed (Debian: apt install bubblewrap)",
    };
  const version = await execa(bwrap, ["--version"], { reject: false, timeout: 5_000 }).then(
    (r) => r.stdout.trim() || "bubblewrap",
  );
  const mechanism = `${version} (user, pid, ipc, uts namespaces; private /tmp and /proc)`;
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
        detail: `the jail does not start here: ${output.trim().split("\n").pop() ?? r.exitCode}`,
      };
    if (output.includes(MARK))
      return { ok: false, mechanism, detail: "a jailed process read a file outside its workspace" };
    if (output.includes("SAW-PARENT"))
      return { ok: false, mechanism, detail: "a jailed process saw codexpi's processes" };
    if (!fs.existsSync(path.join(workspace, "probe.txt")))
      return { ok: false, mechanism, detail: "a jailed process could not write its workspace" };
    return {
      ok: true,
      mechanism,
      detail:
        "a jailed process could not read the data directory nor see codexpi's processes, and wrote its workspace",
    };
  } finally {
    fs.rmSync(secret, { force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}
