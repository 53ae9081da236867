import type { Logger } from "pino";
import type { Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import type { TurnResult } from "../codex/index.js";
import { finishItem, type Outcome } from "../conversations/index.js";
import { failureNote } from "../../i18n/failures.js";
import { capText } from "../text/index.js";
import {
  dropKeptOutcome,
  keepOutcome,
  OUTCOME_RETRY,
  retryWrite,
  type RetryPolicy,
} from "../conversations/index.js";

/** Writes an item's outcome in the database; false when the fence did not match (finished elsewhere). */
export type OutcomeWriter = (item: { id: string; attempt: number }, outcome: Outcome) => Promise<boolean>;

/** The fenced final write: only this attempt of a still running item takes the outcome (outcome.ts). */
export function fencedOutcomeWriter(engine: Pick<Kernel, "db" | "clock" | "hook">): OutcomeWriter {
  return (item, outcome) =>
    writeTransaction(engine.db, (trx) => finishItem(trx, engine.clock, engine.hook, item, outcome), {
      locks: [],
    });
}

/**
 * Records an attempt's outcome so that it is never lost. The answer goes to disk first: if this
 * worker dies before the database takes it, the reaper finds it there. Then the database write is
 * retried (full disk, read-only or locked database) until it lands or the item turns out to be
 * finished elsewhere; only then is the kept copy dropped.
 */
export async function recordOutcome(
  engine: Pick<Kernel, "config">,
  log: Logger,
  item: { id: string; attempt: number },
  outcome: Outcome,
  write: { writeOutcome: OutcomeWriter; retry?: RetryPolicy },
): Promise<void> {
  if (!keepOutcome(engine.config, { queueId: item.id, attempt: item.attempt, outcome }))
    log.warn("could not keep the outcome beside the worker log (disk full?): holding it in memory");
  const written = await retryWrite(
    () => write.writeOutcome(item, outcome),
    write.retry ?? OUTCOME_RETRY,
    (err, failures, delayMs) => log.error({ err, failures, delayMs }, "outcome write failed; retrying"),
  );
  dropKeptOutcome(engine.config, item.id);
  if (!written) log.warn("outcome not written: the item was finished elsewhere (reaped?)");
}

/**
 * Maps how a turn ended to the item's outcome; pure so that every case is tested. The failures it
 * describes are notes (key and parameters, no language): readers render them (`failureText`).
 */
export function outcomeOf(
  r: TurnResult,
  cancelRequested: boolean,
  limits: { turnTimeoutMs: number; idleTimeoutMs: number; connectTimeoutMs?: number },
): Outcome {
  const say = failureNote;
  const base = { usage: r.state.usage ?? undefined, files: r.state.files };
  if (r.ended === "cancelled") {
    return cancelRequested
      ? {
          ...base,
          status: "cancelled",
          content: null,
          error: say("worker.cancelled"),
          errorCode: "cancelled",
        }
      : {
          ...base,
          status: "failed",
          content: null,
          error: say("worker.interrupted"),
          errorCode: "interrupted",
        };
  }
  if (r.ended === "watchdog" && r.watchdog === "connect") {
    // Codex's own words say why the model could not be reached (its last retry notice).
    const error = say("worker.model_unreachable", {
      s: Math.round((limits.connectTimeoutMs ?? 0) / 1000),
      detail: capText(reconnectCause(r.state.lastError) ?? "?", 500),
    });
    return { ...base, status: "failed", content: null, error, errorCode: "watchdog" };
  }
  if (r.ended === "watchdog") {
    const error =
      r.watchdog === "idle" && r.state.lastError
        ? say("worker.watchdog_retrying", {
            s: Math.round(limits.idleTimeoutMs / 1000),
            detail: capText(r.state.lastError, 500),
          })
        : r.watchdog === "idle"
          ? say("worker.watchdog_idle", { s: Math.round(limits.idleTimeoutMs / 1000) })
          : say("worker.watchdog_turn", { s: Math.round(limits.turnTimeoutMs / 1000) });
    return { ...base, status: "failed", content: null, error, errorCode: "watchdog" };
  }
  if (r.ended === "completed")
    return { ...base, status: "done", content: r.state.lastAgentMessage ?? "", error: null, errorCode: null };
  if (r.ended === "failed")
    return { ...base, status: "failed", content: null, error: r.state.turnFailed, errorCode: "codex_failed" };
  if (/active writer/i.test(r.stderrTail) || /active writer/i.test(r.state.lastError ?? "")) {
    return {
      ...base,
      status: "failed",
      content: null,
      error: say("worker.thread_busy"),
      errorCode: "thread_busy",
    };
  }
  const detail = capText(r.state.lastError ?? lastLine(r.stderrTail), 500);
  return {
    ...base,
    status: "failed",
    content: null,
    error: detail ? say("worker.interrupted_detail", { detail }) : say("worker.interrupted"),
    errorCode: "interrupted",
  };
}

/** The error inside a retry notice ("Reconnecting... 2/5 (<error>)"), else the text itself. */
function reconnectCause(text: string | null): string | null {
  if (!text) return null;
  const m = /\(([\s\S]*)\)\s*$/.exec(text.trim());
  return m?.[1]?.trim() || text;
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).pop() ?? "";
}
