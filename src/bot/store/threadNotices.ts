import type { Clock, Database } from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables

/**
 * Who was told, in which conversation thread, what they may do there (`slack_thread_notices`):
 * someone who may not prompt is told once per thread, whatever the restarts and however many
 * `serve` share the database (the row's key decides who tells).
 */
export class SlackThreadNotices {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Records that `user` is told in this thread; true only for the first caller, ever. */
  async firstTime(channel: string, threadTs: string, user: string): Promise<boolean> {
    const r = await this.db
      .insertInto("slack_thread_notices")
      .values({ channel_id: channel, thread_ts: threadTs, user_id: user, told_at: this.clock.now() })
      .onConflict((oc) => oc.columns(["channel_id", "thread_ts", "user_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
