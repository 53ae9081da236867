import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { execa } from "execa";
import { isNetworkStack } from "../isolation/index.js";
import { descendants, killTree } from "../system/index.js";

/** How to start one Codex process: the binary, its environment, its jail and its stderr log. */
export interface CodexProcessSpec {
  bin: string;
  env: Record<string, string>;
  stderrFile: string;
  wrap?(codexArgv: string[]): { file: string; args: string[]; env: Record<string, string> };
}

/**
 * The variable whose value marks one turn's processes: Codex and, through its environment, every
 * command it runs and whatever those start (Codex's default `shell_environment_policy` passes it
 * on). A process that leaves Codex's tree and group still carries it: the supervisor's last act
 * kills every process with the turn's mark (`killMarked`). Only a process started with another
 * environment (`env -i`, a policy that drops it) goes unmarked: in the jail, its PID namespace
 * still ends with the turn.
 */
export const TURN_MARK = "CODEXPI_TURN";

/** A new turn's mark (the value of TURN_MARK in its processes' environment). */
export const newTurnMark = (): string => randomUUID();

/**
 * Starts Codex (`codexArgs` after the binary) in a process group of its own, inside its jail when
 * the spec has one, its environment carrying the turn's `mark`. Stdout is a pipe (its events);
 * stderr is appended to the log file, never a pipe (a dead reader must not break the agent).
 * `stdin` is the prompt, or a pipe to talk to it.
 */
export function startCodexProcess(
  spec: CodexProcessSpec,
  cwd: string,
  codexArgs: string[],
  stdin: { input: string } | "pipe",
  mark: string,
) {
  const codexArgv = [spec.bin, ...codexArgs];
  const command = spec.wrap
    ? spec.wrap(codexArgv)
    : { file: spec.bin, args: codexArgv.slice(1), env: spec.env };
  return execa(command.file, command.args, {
    cwd,
    // bubblewrap passes its environment on to Codex: jailed or not, Codex has the mark.
    env: { ...command.env, [TURN_MARK]: mark },
    extendEnv: false,
    detached: true,
    ...(stdin === "pipe" ? { stdin: "pipe" as const } : { input: stdin.input }),
    stdout: "pipe",
    stderr: { file: spec.stderrFile, append: true },
    buffer: false,
    reject: false,
    cleanup: false,
  });
}

/**
 * Stops a Codex process: SIGINT (Codex's clean interruption: it stops its commands and exits),
 * then SIGKILL to its whole tree after `graceMs`. The jail (bubblewrap) does not pass signals on,
 * so Codex inside it is signalled directly — not bubblewrap itself, which would die at once and
 * take Codex down with SIGKILL. Nor is a full-access jail's network stack (pasta, Codex's parent):
 * its end would end the jail at once, before Codex's clean exit. Returns the timer of the SIGKILL.
 */
export function interruptThenKill(pid: number, jailed: boolean, graceMs: number): NodeJS.Timeout {
  for (const p of jailed ? descendants(pid).filter((d) => !isNetworkStack(d)) : [pid]) {
    try {
      process.kill(p, "SIGINT");
    } catch {
      // already gone
    }
  }
  return setTimeout(() => killTree(pid, "SIGKILL"), graceMs).unref();
}

/** The watchdogs of one turn: a wall-clock limit, a limit without progress, a limit of failed connections. */
export interface TurnWatchdogs {
  /** Progress: the idle limit starts again, and Codex reached its model (the connection limit is off). */
  touch(): void;
  /** Codex failed to reach its model and retries: the connection limit starts, unless it runs already. */
  failing(): void;
  /** Stops the clocks (a person is being asked): waiting for them is neither idle nor turn time. */
  pause(): void;
  /** Restarts them: the idle limit in full, the turn limit with what was left of it. */
  resume(): void;
  clear(): void;
}

/**
 * Arms a turn's watchdogs. Codex retries an unreachable provider forever and its retry errors are
 * not progress, so a turn that never ends is stopped by one of them (`fire` is called once). The
 * connection limit (`connectTimeoutMs`) runs from the first retry of a series to the next sign of
 * life: a model that cannot be reached fails the turn in that bound, whatever the idle limit.
 */
export function turnWatchdogs(
  limits: { turnTimeoutMs: number; idleTimeoutMs: number; connectTimeoutMs?: number },
  fire: (which: "turn" | "idle" | "connect") => void,
): TurnWatchdogs {
  let turnLeft = limits.turnTimeoutMs;
  let turnStarted = Date.now();
  let turnTimer: NodeJS.Timeout | null = setTimeout(() => fire("turn"), turnLeft);
  let idleTimer: NodeJS.Timeout | null = setTimeout(() => fire("idle"), limits.idleTimeoutMs);
  let connectTimer: NodeJS.Timeout | null = null;
  let paused = false;
  let cleared = false;
  const stopConnect = () => {
    if (connectTimer) clearTimeout(connectTimer);
    connectTimer = null;
  };
  const stop = () => {
    if (turnTimer) clearTimeout(turnTimer);
    if (idleTimer) clearTimeout(idleTimer);
    stopConnect();
    turnTimer = null;
    idleTimer = null;
  };
  return {
    touch() {
      if (paused || cleared) return;
      stopConnect();
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => fire("idle"), limits.idleTimeoutMs);
    },
    failing() {
      if (paused || cleared || connectTimer || !limits.connectTimeoutMs) return;
      connectTimer = setTimeout(() => fire("connect"), limits.connectTimeoutMs);
    },
    pause() {
      if (paused) return;
      paused = true;
      turnLeft -= Date.now() - turnStarted;
      stop();
    },
    resume() {
      if (!paused || cleared) return;
      paused = false;
      turnStarted = Date.now();
      turnTimer = setTimeout(() => fire("turn"), Math.max(0, turnLeft));
      idleTimer = setTimeout(() => fire("idle"), limits.idleTimeoutMs);
    },
    clear() {
      cleared = true; // for good: nothing restarts a cleared watchdog
      stop();
    },
  };
}

/** The end of a log file (Codex's stderr), for the outcome's diagnosis. */
export function stderrTail(file: string, bytes = 2_000): string {
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
