import type { Kysely, Updateable } from "kysely";
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
