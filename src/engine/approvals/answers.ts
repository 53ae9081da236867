import type { Kysely } from "kysely";
import { canSeeConversationId, mayAnswer } from "../projects/index.js";
import type { Actor } from "../projects/index.js";
import { writeTransaction } from "../database.js";
import { EngineError } from "../errors.js";
import { withEffects, type Kernel, type Outcome } from "../kernel.js";
import { emit } from "../outbox.js";
import type { DB } from "../schema.js";
import { isAnswerable, STATUS_OF_ANSWER, type ApprovalAnswer } from "./machine.js";
import { moveApproval } from "./store.js";
import { readApproval, type ApprovalView } from "./view.js";
import { announce } from "../wakeups.js";

/**
 * One approval the actor may answer (DESIGN "Who answers an approval": the conversation's person,
 * the project's owner, admins); to a reader of the conversation "reserved", to anyone else not_found.
 */
export async function getApproval(db: Kysely<DB>, actor: Actor, id: string): Promise<ApprovalView> {
  const a = await readApproval(db, id);
  if (a && (await mayAnswer(db, actor, "approval", a.conversation_id, a.user_id))) return a;
  // Someone who sees the conversation is told who answers; anyone else, as if it did not exist.
  if (a && (await canSeeConversationId(db, actor, a.conversation_id)))
    throw new EngineError("forbidden", "approval_reserved", { person: a.user_id ?? "" });
  throw new EngineError("not_found", "approval_not_found");
}

/** Why a closed request takes no answer any more: someone answered, it expired, or its turn ended. */
function closed(a: Pick<ApprovalView, "status">): EngineError {
  if (a.status === "expired") return new EngineError("conflict", "approval_expired");
  if (a.status === "abandoned") return new EngineError("conflict", "approval_abandoned");
  return new EngineError("conflict", "approval_answered");
}

/**
 * Answers a request: a guarded move out of `pending` (a second click, an answer racing the expiry
 * or the turn's end, changes nothing and is told why) with its `approval.answered` event, in one
 * transaction. The waiting worker reads it at once on PostgreSQL (woken), within a poll on
 * SQLite; `stop` also stops the conversation.
 */
export async function answerApprovalUseCase(
  kernel: Pick<Kernel, "db" | "clock">,
  actor: Actor,
  approvalId: string,
  answer: ApprovalAnswer,
): Promise<Outcome<ApprovalView>> {
  // Global lock (PostgreSQL): a person's click: read, check, guarded move; rare.
  const answered = await writeTransaction(kernel.db, async (trx) => {
    const a = await getApproval(trx, actor, approvalId);
    if (!isAnswerable(a.status)) throw closed(a);
    const now = kernel.clock.now();
    if (
      !(await moveApproval(trx, a.id, STATUS_OF_ANSWER[answer], {
        answered_by: actor.userId,
        answered_at: now,
      }))
    )
      throw closed(await getApproval(trx, actor, a.id));
    await emit(trx, now, { kind: "approval.answered", conversationId: a.conversation_id, approvalId: a.id });
    await announce(trx, "answers", a.id); // the waiting worker reads it at once
    return getApproval(trx, actor, a.id);
  });
  return withEffects(answered, answer === "stop" ? { stop: [answered.conversation_id] } : {});
}
