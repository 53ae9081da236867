import type { Kysely } from "kysely";

// Frozen once landed. A channel's default project (`/codex project set <name> --default-for
// #channel`): where a mention without a project name goes. Owned by the Slack adapter, like
// slack_addresses: a channel is a Slack notion, the engine only decides who may prompt the project.
// Keyed by the project's id, so that a renamed project stays the default; removed with it (see
// SlackChannelDefaults: a default whose project is gone is ignored).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("slack_channel_defaults")
    .ifNotExists()
    .addColumn("channel_id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("set_by", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("slack_channel_defaults").ifExists().execute();
}
