import readline from "node:readline";
import { applyCodexEvent, initialCodexState, parseCodexLine, type CodexState } from "./codexEvents.js";
import { codexExecArgs, type CodexInvocation } from "./codexArgs.js";
import { killGroup, processStartTime } from "./processes.js";
import { interruptThenKill, startCodexProcess, stderrTail, turnWatchdogs } from "./turnProcess.js";

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
 * A wall-clock and an idle watchdog stop a turn that never ends (turnProcess.ts); on any stop
 * Codex gets SIGINT, then its whole tree SIGKILL.
 */
export async function runCodexTurn(opts: TurnOptions): Promise<TurnResult> {
  const child = startCodexProcess(opts, opts.invocation.cwd, codexExecArgs(opts.invocation), {
    input: opts.prompt,
  });
  const pid = child.pid;
  let state = initialCodexState();
  const ctl: { stop: { reason: TurnResult["ended"]; watchdog: TurnResult["watchdog"] } | null } = {
    stop: null,
  };
  const timers: NodeJS.Timeout[] = [];

  const stopGroup = (reason: TurnResult["ended"], watchdog: TurnResult["watchdog"] = null) => {
    if (ctl.stop || !pid) return;
    ctl.stop = { reason, watchdog };
    timers.push(interruptThenKill(pid, Boolean(opts.wrap), opts.killGraceMs ?? 3_000));
  };

  if (pid) await opts.onSpawn?.(pid, processStartTime(pid));
  const watchdogs = turnWatchdogs(opts, (which) => stopGroup("watchdog", which));
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
        if (event?.type !== "error") watchdogs.touch();
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
      stderrTail: stderrTail(opts.stderrFile),
    };
  } finally {
    watchdogs.clear();
    for (const t of timers) clearTimeout(t);
    opts.signal?.removeEventListener("abort", onAbort);
    // Whatever is left of Codex's group goes with it.
    if (pid) killGroup(pid, "SIGKILL");
  }
}
