import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from "../codex/index.js";
import { lockConversation } from "../conversations/index.js";
import { rootUserOf } from "../coordination/index.js";
import { writeTransaction } from "../database.js";
import { newId } from "../ids.js";
import type { Kernel } from "../kernel.js";
import { emit } from "../outbox.js";
import { recordAgentAudit } from "../audit/index.js";
import { expireApproval } from "./lifecycle.js";
import { DECISION_OF_STATUS } from "./machine.js";
import { wakeOrTimeout, wakeupsOf } from "../wakeups.js";

/** The turn a request belongs to: the queue item (and attempt) its worker runs. */
export interface ApprovalTurn {
  conversationId: string;
  queueId: string;
  attempt: number;
}

/**
 * How often a waiting worker reads its request's status. The answer is written by the bot (or the
 * CLI), another process: a read every 200 ms reaches the runner well within the second promised.
 */
const POLL_MS = 200;
/** How long a Stop's answer waits for its stop to be recorded (25 polls: 5 s). */
const STOP_WAIT_POLLS = 25;

/**
 * An ApprovalHandler's body for the worker: records the request durably (once: the same request
 * replayed finds its row), announces it (`approval.requested`: the card in the thread), then waits
 * for its closing — a person's answer, its deadline (checked here too, so that it expires even
 * while no tick runs), or the end of the turn (`signal`: answered `cancel`).
 */
async function awaitApproval(
  kernel: Pick<Kernel, "db" | "clock" | "config" | "logger">,
  turn: ApprovalTurn,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  const { db, clock } = kernel;
  const log = kernel.logger.child({ queueId: turn.queueId, itemId: request.itemId });
  const row = await recordRequest(kernel, turn, request);
  log.info({ approvalId: row.id }, "approval requested");
  for (;;) {
    if (signal.aborted) return "cancel";
    try {
      const current = await db
        .selectFrom("approvals")
        .select(["status", "expires_at"])
        .where("id", "=", row.id)
        .executeTakeFirst();
      if (!current) return "cancel"; // its conversation was removed
      const decision = DECISION_OF_STATUS[current.status];
      if (decision) {
        log.info({ approvalId: row.id, status: current.status }, "approval closed");
        // Stop is the answer, then the conversation's stop: Codex is told only once the stop is
        // recorded, so that the turn it ends counts as cancelled, never as a failure.
        if (current.status === "stopped") await stopRecorded(kernel, turn.queueId, signal);
        return decision;
      }
      if (clock.now() >= current.expires_at)
        // Global lock (PostgreSQL): a guarded move at most once per approval; rare.
        await writeTransaction(db, (trx) => expireApproval(trx, clock.now(), row));
    } catch (err) {
      log.warn({ err }, "could not read the approval (retrying)"); // a locked database: next poll
    }
    // An answer wakes the wait at once on PostgreSQL (NOTIFY); the poll stays as a safety net.
    await wakeOrTimeout(wakeupsOf(db), ["answers"], POLL_MS, { signal, payload: row.id });
  }
}

/** The worker's ApprovalHandler for one turn: each request is made durable and waits for its answer. */
export const approvalHandler =
  (kernel: Pick<Kernel, "db" | "clock" | "config" | "logger">, turn: ApprovalTurn): ApprovalHandler =>
  (request, signal) =>
    awaitApproval(kernel, turn, request, signal);

/** Inserts the request (or finds it again) and emits `approval.requested` once, in one transaction. */
async function recordRequest(
  kernel: Pick<Kernel, "db" | "clock" | "config">,
  turn: ApprovalTurn,
  r: ApprovalRequest,
): Promise<{ id: string; conversation_id: string }> {
  const approvalId = r.approvalId ?? r.itemId;
  // No global lock (PostgreSQL): a worker's write, once per request under a unique index.
  return writeTransaction(
    kernel.db,
    async (trx) => {
      const now = kernel.clock.now();
      const id = newId();
      const inserted = await trx
        .insertInto("approvals")
        .values({
          id,
          conversation_id: turn.conversationId,
          queue_id: turn.queueId,
          attempt: turn.attempt,
          user_id: await rootUserOf(trx, turn.conversationId),
          codex_thread_id: r.threadId,
          turn_id: r.turnId,
          item_id: r.itemId,
          approval_id: approvalId,
          kind: r.kind,
          command: r.command,
          cwd: r.cwd,
          reason: r.reason,
          diff: r.diff,
          files: JSON.stringify(r.files),
          status: "pending",
          answered_by: null,
          answered_at: null,
          created_at: now,
          expires_at: now + kernel.config.approvalTtlMs,
        })
        .onConflict((oc) => oc.columns(["codex_thread_id", "item_id", "approval_id"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
        await lockConversation(trx, turn.conversationId); // the conversation's events in commit order
        await emit(trx, now, {
          kind: "approval.requested",
          conversationId: turn.conversationId,
          approvalId: id,
        });
        await recordAgentAudit(trx, now, turn.conversationId, {
          action: "approval.request",
          target: `approval:${id}`,
          detail: r.command ?? r.reason ?? r.kind,
        });
      }
      return trx
        .selectFrom("approvals")
        .select(["id", "conversation_id"])
        .where("codex_thread_id", "=", r.threadId)
        .where("item_id", "=", r.itemId)
        .where("approval_id", "=", approvalId)
        .executeTakeFirstOrThrow();
    },
    { locks: [] },
  );
}

/** Waits (a few seconds at most) until the item's stop is recorded or the turn is stopped. */
async function stopRecorded(kernel: Pick<Kernel, "db">, queueId: string, signal: AbortSignal): Promise<void> {
  for (let i = 0; i < STOP_WAIT_POLLS && !signal.aborted; i++) {
    const item = await kernel.db
      .selectFrom("prompt_queue")
      .select(["cancel_requested_at", "status"])
      .where("id", "=", queueId)
      .executeTakeFirst();
    if (!item || item.cancel_requested_at !== null || item.status !== "running") return;
    await wakeOrTimeout(wakeupsOf(kernel.db), ["cancel"], POLL_MS, { signal, payload: queueId });
  }
}
