import type { Clock, Database } from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables

/** A channel's settings: its project, and for that project's requests a model, an effort, instructions. */
export interface ChannelSettings {
  projectId: string;
  model: string | null;
  effort: string | null;
  instructions: string | null;
}

/** What a change sets: absent fields are left as they are, null clears (never the project: see `clear`). */
export type ChannelSettingsChange = Partial<ChannelSettings>;

/**
 * Each channel's default project and settings (`slack_channel_defaults`): where a mention without
 * a project name goes, and how its requests run there (`/codex channel`).
 */
export class SlackChannelDefaults {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The id of the channel's default project, if one was set (the engine says whether it still exists). */
  async get(channel: string): Promise<string | null> {
    return (await this.settings(channel))?.projectId ?? null;
  }

  /** The channel's settings, if it has a project. */
  async settings(channel: string): Promise<ChannelSettings | null> {
    const row = await this.db
      .selectFrom("slack_channel_defaults")
      .select(["project_id", "model", "effort", "instructions"])
      .where("channel_id", "=", channel)
      .executeTakeFirst();
    if (!row) return null;
    return {
      projectId: row.project_id,
      model: row.model,
      effort: row.effort,
      instructions: row.instructions,
    };
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

  /** Removes the channel's project and settings; answers whether it had any. */
  async clear(channel: string): Promise<boolean> {
    const rows = await this.db
      .deleteFrom("slack_channel_defaults")
      .where("channel_id", "=", channel)
      .returning("channel_id")
      .execute();
    return rows.length > 0;
  }

  /** Makes a project the channel's default (replacing the previous one, and its settings if another). */
  async set(channel: string, projectId: string, setBy: string): Promise<void> {
    await this.change(channel, { projectId }, setBy);
  }

  /**
   * Changes the channel's settings; a channel without a project needs one in the change. A new
   * project drops the model, effort and instructions set for the previous one (its models differ).
   */
  async change(channel: string, change: ChannelSettingsChange, setBy: string): Promise<ChannelSettings> {
    const before = await this.settings(channel);
    const projectId = change.projectId ?? before?.projectId;
    if (!projectId) throw new Error("a channel's settings need its project");
    const kept = before && before.projectId === projectId ? before : null;
    const after: ChannelSettings = {
      projectId,
      model: change.model !== undefined ? change.model : (kept?.model ?? null),
      effort: change.effort !== undefined ? change.effort : (kept?.effort ?? null),
      instructions: change.instructions !== undefined ? change.instructions : (kept?.instructions ?? null),
    };
    const values = {
      project_id: after.projectId,
      model: after.model,
      effort: after.effort,
      instructions: after.instructions,
      set_by: setBy,
      updated_at: this.clock.now(),
    };
    await this.db
      .insertInto("slack_channel_defaults")
      .values({ channel_id: channel, ...values })
      .onConflict((oc) => oc.column("channel_id").doUpdateSet(values))
      .execute();
    return after;
  }
}
