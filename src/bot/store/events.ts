import type { Database } from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables

/**
 * The Slack events and signed requests the bot has handled (`slack_events`, its own table):
 * Slack retries events and a replayed request must be refused, across restarts.
 */
export class HandledEvents {
  constructor(private readonly db: Database) {}

  /** Records a key; false when it was recorded before. */
  async firstTime(key: string, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto("slack_events")
      .values({ event_id: key, received_at: now })
      .onConflict((oc) => oc.column("event_id").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Gives a key back (a request put aside after its key was taken, to be consumed later). */
  async release(key: string): Promise<void> {
    await this.db.deleteFrom("slack_events").where("event_id", "=", key).execute();
  }

  /** Forgets the keys received before `before` (only those starting with `prefix`, when given). */
  async forget(before: number, prefix?: string): Promise<void> {
    let q = this.db.deleteFrom("slack_events").where("received_at", "<", before);
    if (prefix) q = q.where("event_id", "like", `${prefix}%`);
    await q.execute();
  }
}
