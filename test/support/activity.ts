import { writeTransaction, type Database } from "../../src/engine/database.js";
import { emit } from "../../src/engine/outbox.js";

/**
 * What a worker records of a running turn's activity, as `engine/worker/progressWrites.ts` does:
 * the item's last activity and its `conversation.progress` event, in one transaction.
 */
export function recordActivity(
  db: Database,
  now: number,
  turn: { conversationId: string; queueId: string },
  activity: string,
): Promise<void> {
  return writeTransaction(db, async (trx) => {
    await trx
      .updateTable("prompt_queue")
      .set({ last_activity: activity })
      .where("id", "=", turn.queueId)
      .execute();
    await emit(trx, now, { kind: "conversation.progress", ...turn, activity });
  });
}
