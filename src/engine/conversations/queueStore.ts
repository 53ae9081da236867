import type { Kysely, Updateable } from "kysely";
import type { DB, PromptQueueTable, QueueStatus } from "../schema.js";
import { guardFor } from "../stateMachine.js";
import { QUEUE_TRANSITIONS } from "./queueMachine.js";

/** What fences a queue item's move besides its status. */
export interface ItemFence {
  /** The statuses the caller read (narrower than the table's). */
  from?: readonly QueueStatus[];
  /** The attempt the caller holds: a late worker of an earlier attempt moves nothing. */
  attempt?: number;
}

/**
 * Moves one queue item to `to` (with `set`), guarded on the from-states the table allows (or the
 * caller's) and on its attempt when given. The only way an item's status changes after insert.
 * Returns whether it moved.
 */
export async function moveItem(
  trx: Kysely<DB>,
  id: string,
  to: QueueStatus,
  set: Omit<Updateable<PromptQueueTable>, "status"> = {},
  fence: ItemFence = {},
): Promise<boolean> {
  let q = trx
    .updateTable("prompt_queue")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("queue item", QUEUE_TRANSITIONS, to, fence.from));
  if (fence.attempt !== undefined) q = q.where("attempt", "=", fence.attempt);
  const u = await q.executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}
