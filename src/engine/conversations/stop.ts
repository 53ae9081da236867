import { runUseCase, withEffects, type Kernel, type Outcome } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { finishItem } from "./outcome.js";
import { lockConversation } from "./conversationStore.js";
import { failureNote } from "../../i18n/failures.js";
import { emit } from "../outbox.js";
import { announce } from "../wakeups.js";

/** What a stop did to the conversation's items. */
export interface StopResult {
  cancelledQueued: number;
  stoppingRunning: number;
}

/** What a stop did, with the decisions it cancelled (what the person who pressed Stop is told). */
export interface StopReport extends StopResult {
  /** Decisions the conversation had left open, cancelled by this stop. */
  cancelledDecisions: number;
}

/**
 * Stops a conversation: queued items are cancelled at once; a running item is flagged and its
 * worker signalled, and the worker itself (or the reaper, if it is gone) writes `cancelled`; a
 * decision it left open is cancelled with the flag (nobody waits for its answer any more).
 * Idempotent: a second click finds nothing left to stop.
 */
export async function stopConversation(engine: Kernel, conversationId: string): Promise<StopResult> {
  const { cancelledQueued, stoppingRunning } = await stopAndReport(engine, conversationId);
  return { cancelledQueued, stoppingRunning };
}

/** `stopConversation`, also counting the open decisions it cancelled. */
export function stopAndReport(engine: Kernel, conversationId: string): Promise<StopReport> {
  return runUseCase(engine, () => stopUseCase(engine, conversationId));
}

/**
 * The stop as a use case: its writes, committed, and the workers to signal as its effect (the
 * caller's use case may add it to its own effects). Counts only what this call stopped (a running
 * item already flagged is not counted again), so that a second click reports nothing, and tells
 * the conversation's thread once who stopped (`by`) and what.
 */
export async function stopUseCase(
  engine: Pick<Kernel, "db" | "clock" | "hook" | "config" | "onStop">,
  conversationId: string,
  by: string | null = null,
): Promise<Outcome<StopReport>> {
  const { db, clock } = engine;
  const now = clock.now();
  const queued = await db
    .selectFrom("prompt_queue")
    .select(["id", "attempt"])
    .where("conversation_id", "=", conversationId)
    .where("status", "=", "queued")
    .execute();
  let cancelledQueued = 0;
  for (const q of queued) {
    const ok = await writeTransaction(
      db,
      (trx) =>
        finishItem(
          trx,
          clock,
          engine.hook,
          { id: q.id, attempt: q.attempt, fromStatus: "queued" },
          {
            status: "cancelled",
            content: null,
            error: failureNote("worker.cancelled_queued"),
            errorCode: "cancelled",
          },
        ),
      { locks: [] }, // a fenced finish: see finishItem
    );
    if (ok) cancelledQueued += 1;
  }
  const running = await db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["q.id", "q.worker_pid", "q.worker_start_time", "p.host"])
    .where("q.conversation_id", "=", conversationId)
    .where("q.status", "=", "running")
    .execute();
  const { flagged, cancelledDecisions } = await writeTransaction(
    db,
    async (trx) => {
      let flagged = 0;
      for (const r of running) {
        const res = await trx
          .updateTable("prompt_queue")
          .set({ cancel_requested_at: now })
          .where("id", "=", r.id)
          .where("status", "=", "running")
          .where("cancel_requested_at", "is", null)
          .executeTakeFirst();
        flagged += Number(res.numUpdatedRows);
        if (Number(res.numUpdatedRows) > 0) await announce(trx, "cancel", r.id); // its worker, wherever it runs
      }
      // Item rows first, then the conversation's (the order finishes take): its events in commit order.
      await lockConversation(trx, conversationId);
      const cancelledDecisions = await engine.onStop(trx, now, conversationId);
      // The thread is told what was stopped; the state message, which offered Stop, is shown again.
      if (flagged + cancelledQueued + cancelledDecisions > 0)
        await emit(trx, now, {
          kind: "conversation.stopped",
          conversationId,
          by,
          stoppingRunning: flagged,
          cancelledQueued,
          cancelledDecisions,
        });
      return { flagged, cancelledDecisions };
    },
    { locks: [] },
  ); // guarded moves (flags, decisions), then the conversation's row
  // The worker also polls the flag; the signal only makes the stop immediate (after commit).
  // A pid means something on its own machine only: a worker of another host sees the flag instead.
  const signal = running
    .filter((r) => (r.host ?? null) === engine.config.hostName)
    .map((r) => ({ pid: r.worker_pid, startTime: r.worker_start_time }));
  return withEffects({ cancelledQueued, stoppingRunning: flagged, cancelledDecisions }, { signal });
}
