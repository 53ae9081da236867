import type { Kysely, Updateable } from "kysely";
import { emit } from "../outbox.js";
import type { DB, DecisionsTable } from "../schema.js";
import { guardFor } from "../stateMachine.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import { DECISION_TRANSITIONS, type DecisionStatus } from "./decisionMachine.js";
import { moveDelegation } from "./coordinationStore.js";

// Every change of a decision's status goes through `moveDecision`: the from-states the table
// allows are in the WHERE, so a second click, a second tick or a stop racing an answer moves it
// at most once, and the caller learns whether it did.

/**
 * Moves one decision to `to` (with `set`), guarded on the statuses the table lets into `to` (or
 * the caller's narrower `from`). Returns whether it moved.
 */
export async function moveDecision(
  trx: Kysely<DB>,
  id: string,
  to: DecisionStatus,
  set: Omit<Updateable<DecisionsTable>, "status"> = {},
  from?: readonly DecisionStatus[],
): Promise<boolean> {
  const u = await trx
    .updateTable("decisions")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("decision", DECISION_TRANSITIONS, to, from))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/**
 * Cancels the conversation's open decisions (its agent was stopped or failed: nobody waits for
 * the answer any more), each with its `decision.cancelled` event, in the caller's transaction.
 * `endedQueueId` names the cancelled item that caused it, if any. Returns the ids it
 * cancelled.
 */
export async function cancelOpenDecisions(
  trx: Kysely<DB>,
  now: number,
  conversationId: string,
  endedQueueId?: string,
): Promise<string[]> {
  // Through the conversation's items: decisions are indexed by the item that asked them.
  const open = await trx
    .selectFrom("decisions")
    .select(["id", "queue_id"])
    .where("queue_id", "in", (eb) =>
      eb.selectFrom("prompt_queue").select("id").where("conversation_id", "=", conversationId),
    )
    .where("status", "=", "OPEN")
    .execute();
  const cancelled: string[] = [];
  for (const d of open) {
    if (!(await moveDecision(trx, d.id, "CANCELLED"))) continue;
    await emit(trx, now, { kind: "decision.cancelled", conversationId, decisionId: d.id });
    cancelled.push(d.id);
    // A specialist waiting on this decision would wait forever: it resumes on the item that
    // ended (or the one that asked), and the delegation tick hands that ending to its caller.
    await moveDelegation(
      trx,
      { specialistConversationId: conversationId },
      "RUNNING",
      { queue_id: endedQueueId ?? d.queue_id, updated_at: now },
      ["WAITING_CHILD"],
    );
  }
  return cancelled;
}

/**
 * Outcome hook: a cancelled turn (a stop, a run or orchestration cancelled) cancels the decisions
 * its conversation left open. A failed turn does not: the question still stands, and answering it
 * resumes the same thread (S-CO-10 lists a decision next to a failure of its conversation).
 */
export const cancelDecisionsReactor: OutcomeReactor = async (trx, o, clock) => {
  if (o.status !== "cancelled") return;
  await cancelOpenDecisions(trx, clock.now(), o.conversationId, o.queueId);
};
