import type { Kysely, Updateable } from "kysely";
import { dialectOf } from "../database.js";
import type { ConversationsTable, ConversationStatus, DB } from "../schema.js";
import { guardFor } from "../stateMachine.js";
import { CONVERSATION_TRANSITIONS } from "./conversationMachine.js";

/**
 * Moves a conversation's status mirror to `to` (with `set`), guarded on the from-states the table
 * allows (or the caller's narrower list). The only way a conversation's status changes after
 * insert. Returns whether it moved.
 */
export async function moveConversation(
  trx: Kysely<DB>,
  id: string,
  to: ConversationStatus,
  set: Omit<Updateable<ConversationsTable>, "status"> = {},
  from?: readonly ConversationStatus[],
): Promise<boolean> {
  const u = await trx
    .updateTable("conversations")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("conversation", CONVERSATION_TRANSITIONS, to, from))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/**
 * Locks a conversation's row until the transaction ends (PostgreSQL; on SQLite the write
 * transaction already holds the whole file). Enqueues, finishes and progress writes of one
 * conversation take it, so they take turns: sequence numbers in commit order (FIFO), the status
 * mirror read and written against every committed item, its outbox events in commit order. Lock
 * order: a transaction that moves an item locks that item's row first, then its conversation.
 */
export async function lockConversation(trx: Kysely<DB>, id: string): Promise<void> {
  if (dialectOf(trx) !== "postgres") return;
  await trx.selectFrom("conversations").select("id").where("id", "=", id).forUpdate().execute();
}
