import fs from "node:fs";
import path from "node:path";
import type { Config } from "../../config.js";
import type { Outcome } from "./outcome.js";
import { logsDir } from "../system/index.js";

/** An outcome kept on disk beside the worker's log until the database has it. */
export interface KeptOutcome {
  queueId: string;
  attempt: number;
  outcome: Outcome;
}

/** Where a worker keeps the outcome of a queue item before writing it to the database. */
export function keptOutcomeFile(config: Config, queueId: string): string {
  return path.join(logsDir(config), `outcome-${queueId}.json`);
}

/**
 * Writes the outcome beside the worker log (temporary file, then rename: never half a file), so
 * the answer survives a worker that dies before the database takes it. Returns false when the disk
 * refuses too: the worker then holds it in memory only and keeps retrying the database.
 */
export function keepOutcome(config: Config, kept: KeptOutcome): boolean {
  const file = keptOutcomeFile(config, kept.queueId);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, JSON.stringify(kept));
    fs.renameSync(tmp, file);
    return true;
  } catch {
    fs.rmSync(tmp, { force: true });
    return false;
  }
}

/** The kept outcome of this attempt of an item, if a worker left one. */
export function readKeptOutcome(config: Config, queueId: string, attempt: number): Outcome | null {
  try {
    const kept = JSON.parse(fs.readFileSync(keptOutcomeFile(config, queueId), "utf8")) as KeptOutcome;
    return kept.queueId === queueId && kept.attempt === attempt ? kept.outcome : null;
  } catch {
    return null;
  }
}

/** Forgets a kept outcome once the database holds the item's end (or someone else ended it). */
export function dropKeptOutcome(config: Config, queueId: string): void {
  fs.rmSync(keptOutcomeFile(config, queueId), { force: true });
}

/** Backoff of the outcome write: doubling from `baseMs`, capped at `maxMs`. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
}

/** The production backoff: 0.5 s doubling to 30 s, for as long as it takes. */
export const OUTCOME_RETRY: RetryPolicy = { baseMs: 500, maxMs: 30_000 };

/**
 * Runs `write` until it does not throw, waiting longer after each failure: a full disk or a locked
 * or read-only database is a state an operator fixes, and the answer must still land once they do.
 */
export async function retryWrite<T>(
  write: () => Promise<T>,
  policy: RetryPolicy,
  onError: (err: unknown, failures: number, delayMs: number) => void,
): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await write();
    } catch (err) {
      const delayMs = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failures - 1, 20));
      onError(err, failures, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
