import fs from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { WorkerSpawner } from "./dispatcher.js";
import { processSpawner, workerEnv } from "./spawner.js";
import { cliEntry, logsDir } from "../system/index.js";

/** A spawner that keeps a standby worker; close() ends the standby (never an assigned worker). */
export type WarmSpawner = WorkerSpawner & {
  /**
   * Ends the standby and resolves once it has exited: a bot that stops (or fails to start) leaves
   * no process behind that still opens its database or writes its logs.
   */
  close(): Promise<void>;
  /** The waiting standby's pid, if one is up (for tests and diagnostics). */
  standbyPid(): number | null;
  /** Resolves true once a standby has loaded and waits for work (false after `timeoutMs`). */
  waitReady(timeoutMs: number): Promise<boolean>;
};

/** The message a standby worker receives: the one queue item it will run. */
export interface Assignment {
  queueId: string;
  attempt: number;
}

const RESPAWN_BACKOFF_MS = 5_000;
/**
 * How long an unassigned standby has to leave on its own once its channel is dropped (and again
 * after SIGKILL): both within the 5 s a shutdown step is given.
 */
const STANDBY_EXIT_GRACE_MS = 2_000;

/**
 * Keeps one worker process started ahead of time, its modules loaded and its database open,
 * waiting on an IPC channel. A claim is handed to it at once (node's start-up and module loading
 * take hundreds of milliseconds on a small host); the worker then drops the channel, so it lives
 * on detached like any other, and a new standby is started. When none is ready, the
 * cold spawner is used.
 */
export function warmSpawner(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): WarmSpawner {
  const cold = processSpawner(config, env);
  let standby: { child: ChildProcess; ready: boolean; startedAt: number } | null = null;
  let closed = false;
  let respawnTimer: NodeJS.Timeout | null = null;

  const startStandby = () => {
    if (closed || standby) return;
    fs.mkdirSync(logsDir(config), { recursive: true });
    const out = fs.openSync(path.join(logsDir(config), "standby.log"), "a");
    const child = spawn(process.execPath, [cliEntry(), "worker", "--standby"], {
      detached: true,
      stdio: ["ignore", out, out, "ipc"],
      env: workerEnv(config, env),
    });
    fs.closeSync(out);
    const entry = { child, ready: false, startedAt: Date.now() };
    standby = entry;
    child.on("message", (m: unknown) => {
      if ((m as { type?: string })?.type === "ready") entry.ready = true;
    });
    child.once("error", (err) => logger.warn({ err }, "standby worker failed to start"));
    child.once("exit", (code) => {
      if (standby !== entry) return;
      standby = null;
      if (closed) return;
      // A standby that dies young is broken (bad build, bad config): retry slowly, not in a loop.
      const young = Date.now() - entry.startedAt < 1_000;
      logger.warn({ code }, "standby worker exited before it was used");
      respawnTimer = setTimeout(startStandby, young ? RESPAWN_BACKOFF_MS : 0);
      respawnTimer.unref();
    });
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  };

  const spawner = (async (queueId: string, attempt: number) => {
    const entry = standby;
    if (!entry?.ready || !entry.child.connected || !entry.child.pid) return cold(queueId, attempt);
    standby = null;
    const sent = await new Promise<boolean>((resolve) => {
      entry.child.send({ queueId, attempt } satisfies Assignment, (err) => resolve(!err));
    });
    setImmediate(startStandby);
    if (!sent) {
      entry.child.kill("SIGKILL");
      return cold(queueId, attempt);
    }
    return { pid: entry.child.pid as number };
  }) as WarmSpawner;

  spawner.waitReady = async (timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    while (!standby?.ready) {
      if (closed || Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  };

  spawner.standbyPid = () => standby?.child.pid ?? null;

  spawner.close = async () => {
    closed = true;
    if (respawnTimer) clearTimeout(respawnTimer);
    const entry = standby;
    standby = null;
    if (!entry) return;
    const { child } = entry;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // An unassigned standby exits on its own when its channel goes; one still loading may not
    // have listened yet, and holds no work: it is killed after the grace.
    if (child.connected) child.disconnect();
    else child.kill("SIGTERM");
    const left = await within(exited, STANDBY_EXIT_GRACE_MS);
    if (left) return;
    child.kill("SIGKILL");
    await within(exited, STANDBY_EXIT_GRACE_MS);
  };
  startStandby();
  return spawner;
}

/** Whether `done` settled within `ms` (the timer does not outlive it). */
async function within(done: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([done.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
