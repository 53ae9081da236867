import fs from "node:fs";
import readline from "node:readline";
import { execa } from "execa";
import { applyCodexEvent, initialCodexState, parseCodexLine, type CodexState } from "./codexEvents.js";
import { codexExecArgs, type CodexInvocation } from "./codexArgs.js";
import { descendants, killGroup, killTree, processStartTime } from "./processes.js";

/** Everything one Codex turn needs. */
export interface TurnOptions {
  bin: string;
  invocation: CodexInvocation;
  prompt: string;
  env: Record<string, string>;
  turnTimeoutMs: number;
  idleTimeoutMs: number;
  /** Codex's stderr is appended here (never a pipe: a dead reader must not break the agent). */
  stderrFile: string;
  /** Aborting stops the turn (the whole process group goes) and reports `cancelled`. */
  signal?: AbortSignal;
  onSpawn?(pid: number, startTime: string | null): void | Promise<void>;
  onState?(state: CodexState): void;
  /** Delay between SIGINT and SIGKILL when stopping Codex. */
  killGraceMs?: number;
  /**
   * Puts Codex's argv (binary first) inside its jail: returns the command that really starts
   * (bubblewrap) and its environment. Without it Codex starts directly with `env`.
   */
  wrap?(codexArgv: string[]): { file: string; args: string[]; env: Record<string, string> };
}

/** How a turn ended, and what Codex said on the way. */
export interface TurnResult {
  state: CodexState;
  ended: "completed" | "failed" | "exited" | "watchdog" | "cancelled";
  watchdog: "turn" | "idle" | null;
  exitCode: number | null;
  stderrTail: string;
}

/**
 * Runs one `codex exec` turn in its own process group, folding its JSONL into a CodexState.
 * A wall-clock and an idle watchdog stop a turn that never ends (Codex retries an unreachable
 * provider forever; its retry errors are not progress); on any stop Codex gets SIGINT, then its whole tree SIGKILL.
 */
export async function runCodexTurn(opts: TurnOptions): Promise<TurnResult> {
  const codexArgv = [opts.bin, ...codexExecArgs(opts.invocation)];
  const command = opts.wrap
    ? opts.wrap(codexArgv)
    : { file: opts.bin, args: codexArgv.slice(1), env: opts.env };
  const child = execa(command.file, command.args, {
    cwd: opts.invocation.cwd,
    env: command.env,
    extendEnv: false,
    detached: true,
    input: opts.prompt,
    stdout: "pipe",
    stderr: { file: opts.stderrFile, append: true },
    buffer: false,
    reject: false,
    cleanup: false,
  });
  const pid = child.pid;
  let state = initialCodexState();
  const ctl: { stop: { reason: TurnResult["ended"]; watchdog: TurnResult["watchdog"] } | null } = {
    stop: null,
  };
  const timers: NodeJS.Timeout[] = [];
  const killGrace = opts.killGraceMs ?? 3_000;

  const stopGroup = (reason: TurnResult["ended"], watchdog: TurnResult["watchdog"] = null) => {
    if (ctl.stop || !pid) return;
    ctl.stop = { reason, watchdog };
    // SIGINT is Codex's clean interruption: it stops its commands and exits. SIGKILL follows.
    // The jail (bubblewrap) does not pass signals on, so Codex inside it is signalled directly.
    // (Not bubblewrap itself: it would die at once and take Codex down with SIGKILL.)
    for (const p of opts.wrap ? descendants(pid) : [pid]) {
      try {
        process.kill(p, "SIGINT");
      } catch {
        // already gone
      }
    }
    timers.push(setTimeout(() => killTree(pid, "SIGKILL"), killGrace).unref());
  };

  if (pid) await opts.onSpawn?.(pid, processStartTime(pid));
  const turnTimer = setTimeout(() => stopGroup("watchdog", "turn"), opts.turnTimeoutMs);
  let idleTimer = setTimeout(() => stopGroup("watchdog", "idle"), opts.idleTimeoutMs);
  const onAbort = () => stopGroup("cancelled");
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });

  try {
    if (child.stdout) {
      const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
      for await (const line of lines) {
        const event = parseCodexLine(line);
        // Codex's retries ("Reconnecting… 2/5") are top-level errors: a model that keeps failing
        // must not look like progress, or the turn would never end.
        if (event?.type !== "error") {
          clearTimeout(idleTimer);
          idleTimer = setTimeout(() => stopGroup("watchdog", "idle"), opts.idleTimeoutMs);
        }
        if (!event) continue;
        state = applyCodexEvent(state, event);
        opts.onState?.(state);
      }
    }
    const result = await child;
    return {
      state,
      ended: ctl.stop?.reason ?? (state.turnCompleted ? "completed" : state.turnFailed ? "failed" : "exited"),
      watchdog: ctl.stop?.watchdog ?? null,
      exitCode: typeof result.exitCode === "number" ? result.exitCode : null,
      stderrTail: tail(opts.stderrFile),
    };
  } finally {
    clearTimeout(turnTimer);
    clearTimeout(idleTimer);
    for (const t of timers) clearTimeout(t);
    opts.signal?.removeEventListener("abort", onAbort);
    // Whatever is left of Codex's group goes with it.
    if (pid) killGroup(pid, "SIGKILL");
  }
}

function tail(file: string, bytes = 2_000): string {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(Math.min(bytes, size));
    fs.readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    fs.closeSync(fd);
    return buf.toString("utf8");
  } catch {
    return "";
  }
}
