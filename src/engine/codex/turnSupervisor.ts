import type { CodexState } from "./codexEvents.js";
import type { CodexInvocation } from "./codexArgs.js";
import { killGroup, killMarked, processStartTime } from "../system/index.js";
import {
  interruptThenKill,
  stderrTail,
  TURN_MARK,
  type TurnWatchdogs,
  turnWatchdogs,
} from "./turnProcess.js";

/** Everything one Codex turn needs, whichever runner starts it. */
export interface TurnOptions {
  bin: string;
  invocation: CodexInvocation;
  prompt: string;
  env: Record<string, string>;
  turnTimeoutMs: number;
  idleTimeoutMs: number;
  /**
   * How long Codex may do nothing but retry an unreachable or failing model ("Reconnecting…")
   * before the turn fails with its last error (default: no such limit, the idle one applies).
   */
  connectTimeoutMs?: number;
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
  /**
   * The turn's model gateway, which sees what Codex no longer can: that the model cannot be
   * reached (the gateway retries it, holding Codex's request) and when it answers again.
   */
  modelLink?: ModelLink;
}

/** What a turn's gateway says of its model: unreachable (with a retry notice in Codex's words), or reached. */
export type ModelLinkEvent = { kind: "unreachable"; notice: string } | { kind: "reached" };

/** Where a runner listens to its turn's gateway. */
export interface ModelLink {
  subscribe(listener: (e: ModelLinkEvent) => void): () => void;
}

/** What every turn's end carries: Codex's folded state, its exit code and the end of its log. */
interface TurnEnd {
  state: CodexState;
  exitCode: number | null;
  stderrTail: string;
}

/** How a turn ended, and what Codex said on the way; `watchdog` names the limit only when one fired. */
export type TurnResult =
  /** Codex finished the turn: its answer is `state.lastAgentMessage`. */
  | (TurnEnd & { ended: "completed"; watchdog: null })
  /** Codex reported the turn failed (`state.turnFailed`). */
  | (TurnEnd & { ended: "failed"; watchdog: null })
  /** Codex ended without a turn event (a crash, a refusal): `stderrTail` and `state.lastError` say why. */
  | (TurnEnd & { ended: "exited"; watchdog: null })
  /** The caller's signal stopped the turn. */
  | (TurnEnd & { ended: "cancelled"; watchdog: null })
  /** A watchdog stopped a turn that went over its time or made no progress. */
  | (TurnEnd & { ended: "watchdog"; watchdog: Watchdog });

/** The limit that stopped a turn: its wall clock, its silence, or a model it could not reach. */
export type Watchdog = "turn" | "idle" | "connect";

/** Why a turn was stopped before Codex ended it. */
export type TurnStop = { reason: "cancelled" } | { reason: "watchdog"; watchdog: Watchdog };

/** One turn's supervision, the same for both runners. */
export interface TurnSupervisor {
  /** The wall-clock and idle limits: the runner touches them on progress (and pauses them for a person). */
  readonly watchdogs: TurnWatchdogs;
  /** The stop that ended the turn, null while none did. */
  stopped(): TurnStop | null;
  /** SIGINT to Codex, SIGKILL to its tree after the kill grace (`interruptThenKill`), at once or after `delayMs`. */
  signalCodex(delayMs?: number): void;
  /** Records the spawn (`onSpawn`, before any signal can reach Codex), then listens for the caller's abort. */
  attach(): Promise<void>;
  /** The turn's result, once Codex has exited: a stop names the end, otherwise Codex's last turn event. */
  result(state: CodexState, exitCode: unknown): TurnResult;
  /**
   * Disarms everything and SIGKILLs whatever is left of the turn: Codex's process group, and every
   * process with the turn's mark, wherever it went (see `TURN_MARK`).
   */
  close(): void;
}

/**
 * Supervises one Codex turn started in its own process group as `pid`, with `mark` in its
 * environment (`startCodexProcess`): the watchdogs and the caller's abort stop it once (the first
 * reason wins), the watchdogs are cleared, and `onStop` does the runner's part — exec signals
 * Codex at once, the app-server interrupts the turn through its protocol first. Every timer it
 * arms is cleared by `close`.
 */
export function superviseCodexTurn(
  opts: TurnOptions,
  pid: number | undefined,
  mark: string,
  onStop: (stop: TurnStop) => void,
): TurnSupervisor {
  const killGrace = opts.killGraceMs ?? 3_000;
  const timers: NodeJS.Timeout[] = [];
  let stop: TurnStop | null = null;
  const stopTurn = (next: TurnStop) => {
    if (stop || !pid) return;
    stop = next;
    watchdogs.clear();
    onStop(next);
  };
  const watchdogs = turnWatchdogs(opts, (which) => stopTurn({ reason: "watchdog", watchdog: which }));
  const onAbort = () => stopTurn({ reason: "cancelled" });
  const signalCodex = (delayMs?: number) => {
    if (!pid) return;
    const signal = () => timers.push(interruptThenKill(pid, Boolean(opts.wrap), killGrace));
    if (delayMs === undefined) signal();
    else timers.push(setTimeout(signal, delayMs));
  };
  return {
    watchdogs,
    stopped: () => stop,
    signalCodex,
    async attach() {
      if (pid) await opts.onSpawn?.(pid, processStartTime(pid));
      if (opts.signal?.aborted) onAbort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
    },
    result: (state, exitCode) =>
      turnResult(stop, state, typeof exitCode === "number" ? exitCode : null, opts),
    close() {
      watchdogs.clear();
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener("abort", onAbort);
      // Whatever is left of Codex's group goes with it, and every process of the turn that left
      // the group: Codex runs each command in a session of its own, and a stop that comes as a
      // command starts can leave it an orphan (Codex kills the command's sandbox wrapper while
      // the wrapper's bubblewrap is still starting the command: seen under load, the command's
      // sandbox process lived on under init, in a session of its own). In the jail its PID
      // namespace ends with Codex and takes them all; unjailed, only the mark finds them.
      if (pid) killGroup(pid, "SIGKILL");
      killMarked(TURN_MARK, mark, "SIGKILL");
    },
  };
}

function turnResult(
  stop: TurnStop | null,
  state: CodexState,
  exitCode: number | null,
  opts: Pick<TurnOptions, "stderrFile">,
): TurnResult {
  const end = { state, exitCode, stderrTail: stderrTail(opts.stderrFile) };
  if (stop?.reason === "watchdog") return { ...end, ended: "watchdog", watchdog: stop.watchdog };
  if (stop) return { ...end, ended: "cancelled", watchdog: null };
  return {
    ...end,
    ended: state.turnCompleted ? "completed" : state.turnFailed ? "failed" : "exited",
    watchdog: null,
  };
}
