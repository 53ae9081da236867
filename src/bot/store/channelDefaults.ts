import type { Clock, Database } from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables

/** Each channel's default project (`slack_channel_defaults`), where a mention without a project name goes. */
export class SlackChannelDefaults {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The id of the channel's default project, if one was set (the engine says whether it still exists). */
  async get(channel: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("slack_channel_defaults")
      .select("project_id")
      .where("channel_id", "=", channel)
      .executeTakeFirst();
    return row?.project_id ?? null;
  }

  /** Makes the project the default of no channel; returns the channels it was the default of. */
  async clearProject(projectId: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom("slack_channel_defaults")
      .where("project_id", "=", projectId)
      .returning("channel_id")
      .execute();
    return rows.map((r) => r.channel_id).sort();
  }

  /** Makes a project the channel's default (replacing the previous one). */
  async set(channel: string, projectId: string, setBy: string): Promise<void> {
    const values = { project_id: projectId, set_by: setBy, updated_at: this.clock.now() };
    await this.db
      .insertInto("slack_channel_defaults")
      .values({ channel_id: channel, ...values })
      .onConflict((oc) => oc.column("channel_id").doUpdateSet(values))
      .execute();
  }
}
