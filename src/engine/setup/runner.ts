import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  findBwrap,
  forwardedCommand,
  type JailForwards,
  jailArgs,
  testCommandEnvironment,
  workspaceMounts,
} from "../isolation/index.js";
import { proxyNeeded, proxyVariables, startPolicyProxy } from "../egress/index.js";
import { forwarderScript } from "../system/index.js";
import { redactText, registerSecrets } from "../../redaction.js";
import type { SetupNetwork } from "./setupNetwork.js";

// One run of a project's setup, in the jail an acceptance test gets (engine/orchestrations/
// verification.ts): the workspace writable, the object stores it borrows read-only, the system
// read-only, a private /tmp and /proc, no capability and no new namespace (`nestedSandbox: false`),
// stdin closed, a wall-clock limit. Differences: the project's egress proxy is its way out when its
// network lets anything out (`setupNetwork`: the jail has no network of its own), HOME is the jail's private /tmp (npm's and pip's caches go
// nowhere else and die with it), and the project's setup secrets are in its environment — only
// its: the process that gets them is the jail, which is gone (its PID namespace with it) before
// this returns, so no later process, the agent's included, inherits them.

/** What a setup run needs. */
export interface SetupRunInput {
  /** The workspace it prepares (its current directory, writable). */
  cwd: string;
  argv: string[];
  /** Object stores the workspace may borrow (the project's `.git/objects` for a shared clone). */
  allowedAlternates: readonly string[];
  network: SetupNetwork;
  /** The project's setup secrets, name → value. */
  secrets: Record<string, string>;
  timeoutMs: number;
  /** `off`: the operator turned the jail off (unsafe, explicit): the setup runs unjailed. */
  jail: "bwrap" | "off";
}

/** How a setup run ended; `tail` is the end of its output, redacted. */
export interface SetupRun {
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** The last lines of its combined output (at most TAIL_LINES, TAIL_CHARS), secrets redacted. */
  tail: string;
  durationMs: number;
}

/** How much of the output is kept while it runs: far more than the tail, so a cut is never near it. */
const KEEP_BYTES = 256 * 1024;
const TAIL_LINES = 40;
const TAIL_CHARS = 4000;

/** Runs the setup and waits for its jail to be gone. Never throws for the setup's own failure. */
export async function runSetup(input: SetupRunInput): Promise<SetupRun> {
  // Before any of its output is read, logged or shown: the redactor knows every value it was given.
  registerSecrets(Object.values(input.secrets));
  const started = Date.now();
  const bwrap = input.jail === "off" ? null : findBwrap();
  if (input.jail !== "off" && !bwrap)
    return {
      ok: false,
      exitCode: null,
      timedOut: false,
      tail: "bubblewrap (bwrap) is not installed: a setup runs only inside the jail",
      durationMs: 0,
    };
  const egress = bwrap ? await openSetupEgress(input.network) : null;
  const env = {
    ...testCommandEnvironment(process.env, { HOME: "/tmp" }),
    ...(egress?.env ?? {}),
    ...input.secrets,
  };
  const run = forwardedCommand(egress?.forwards ?? null, input.argv);
  const [file, ...args] = bwrap
    ? [
        bwrap,
        ...jailArgs(
          {
            mounts: [...run.mounts, ...workspaceMounts(input.cwd, true, input.allowedAlternates)],
            cwd: input.cwd,
            network: false,
            nestedSandbox: false,
          },
          run.argv,
        ),
      ]
    : input.argv;
  const { exitCode, timedOut, output } = await spawnBounded(file as string, args, input, env).finally(() =>
    egress?.close(),
  );
  return {
    ok: !timedOut && exitCode === 0,
    exitCode,
    timedOut,
    tail: tailOf(redactText(output)),
    durationMs: Date.now() - started,
  };
}

/** The setup's way out: the project's egress proxy on a socket of its own, or null (no network). */
async function openSetupEgress(
  network: SetupNetwork,
): Promise<{ forwards: JailForwards; env: Record<string, string>; close(): Promise<void> } | null> {
  if (!proxyNeeded(network.policy)) return null;
  fs.mkdirSync(network.runDir, { recursive: true, mode: 0o700 });
  const socketDir = fs.mkdtempSync(path.join(network.runDir, "setup-"));
  try {
    const proxy = await startPolicyProxy(socketDir, network.policy);
    const port = 3128;
    return {
      forwards: { script: forwarderScript(), socketDir, ports: [[port, "proxy.sock"]] },
      env: proxyVariables(port),
      async close() {
        await proxy.close();
        fs.rmSync(socketDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw err;
  }
}

/** Spawns the jail in its own process group, keeps the end of its output, kills the group at the limit. */
function spawnBounded(
  file: string,
  args: string[],
  input: Pick<SetupRunInput, "cwd" | "timeoutMs">,
  env: Record<string, string>,
): Promise<{ exitCode: number | null; timedOut: boolean; output: string }> {
  return new Promise((resolve) => {
    let kept: Buffer[] = [];
    let size = 0;
    const keep = (chunk: Buffer) => {
      kept.push(chunk);
      size += chunk.length;
      if (size > 2 * KEEP_BYTES) {
        const all = Buffer.concat(kept).subarray(-KEEP_BYTES);
        kept = [all];
        size = all.length;
      }
    };
    const child = spawn(file, args, {
      cwd: input.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      shell: false,
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, input.timeoutMs);
    let spawnError = "";
    child.on("error", (err) => {
      spawnError = `\n${err.message}`;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const output = Buffer.concat(kept).subarray(-KEEP_BYTES).toString("utf8") + spawnError;
      resolve({ exitCode: typeof code === "number" ? code : null, timedOut, output });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The last lines people read of a setup's output. */
function tailOf(output: string): string {
  const lines = output.replace(/\s+$/, "").split("\n").slice(-TAIL_LINES).join("\n");
  return lines.length > TAIL_CHARS ? `…${lines.slice(-TAIL_CHARS)}` : lines;
}
