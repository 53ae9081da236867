import type { Logger } from "pino";
import type { Clock } from "../clock.js";
import { writeTransaction, type Database } from "../database.js";
import { finishItem, type Outcome } from "../conversations/index.js";
import type { RecordAgentOutcome } from "../outcomeHook.js";
import { failureNote } from "../../i18n/failures.js";
import { isSameProcessAlive, killTree } from "../system/index.js";

/** How long a claimed item may wait for its worker to record itself before it counts as lost. */
export const SPAWN_GRACE_MS = 30_000;

/** Finds the outcome a dead worker could not write (see `recoverOutcome`), or null. */
export type OutcomeRecovery = (item: { id: string; attempt: number }) => Promise<Outcome | null>;

/**
 * Fails running items whose worker is gone (pid + start time, never a bare pid) with the
 * `interrupted` code — or `cancelled` when a stop was asked — and kills a Codex group the dead
 * worker left behind. A finished turn the worker could not record (`recover`) is recorded instead
 * of calling the item interrupted. Costs one indexed read of the running items plus a /proc read each.
 * Only the items of `placement`'s projects: a pid means something on its own machine only.
 */
export async function reapLostWorkers(
  db: Database,
  clock: Clock,
  hook: RecordAgentOutcome,
  logger: Logger,
  recover: OutcomeRecovery = async () => null,
  placement: string | null = null,
): Promise<string[]> {
  const now = clock.now();
  const running = await db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select([
      "q.id",
      "q.attempt",
      "q.worker_pid",
      "q.worker_start_time",
      "q.slot_acquired_at",
      "q.codex_pid",
      "q.codex_start_time",
      "q.cancel_requested_at",
    ])
    .where("q.status", "=", "running")
    .where("p.host", placement === null ? "is" : "=", placement)
    .execute();
  const reaped: string[] = [];
  for (const item of running) {
    const lost = item.worker_pid
      ? !isSameProcessAlive(item.worker_pid, item.worker_start_time)
      : now - (item.slot_acquired_at ?? now) > SPAWN_GRACE_MS;
    if (!lost) continue;
    if (item.codex_pid && isSameProcessAlive(item.codex_pid, item.codex_start_time))
      killTree(item.codex_pid, "SIGKILL");
    const cancelled = item.cancel_requested_at !== null;
    const recovered = cancelled
      ? null
      : await recover(item).catch((err) => {
          logger.warn({ err, queueId: item.id }, "could not look for the lost worker's answer");
          return null;
        });
    const done = await writeTransaction(
      db,
      (trx) =>
        finishItem(
          trx,
          clock,
          hook,
          item,
          recovered ?? {
            status: cancelled ? "cancelled" : "failed",
            content: null,
            error: failureNote(cancelled ? "worker.cancelled" : "worker.interrupted"),
            errorCode: cancelled ? "cancelled" : "interrupted",
          },
        ),
      { locks: [] }, // a fenced finish: see finishItem
    );
    if (done) {
      logger.warn(
        { queueId: item.id, pid: item.worker_pid, recovered: recovered !== null },
        recovered ? "recorded the answer a lost worker could not write" : "reaped a lost worker",
      );
      reaped.push(item.id);
    }
  }
  return reaped;
}
