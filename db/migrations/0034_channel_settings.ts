import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Channel settings (issue 32, item 4). Three parts, one step:
// - `slack_channel_defaults.model`, `effort`, `instructions`: the Slack adapter's settings of a
//   channel, beside its default project (`/codex channel set`); null: the project's defaults.
// - `conversations.instructions`: the standing instructions a conversation was started with (its
//   channel's), told to the agent at every turn; null: none. The engine never knows whence.
// - `project_channel_shares`: a project shared with a channel (`/codex project share`): its members
//   read it, and prompt it when `may_prompt` is 1. The bot says who belongs to a channel.
// Additive and idempotent: an older version ignores them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "slack_channel_defaults", [
    ["model", "text", (c) => c],
    ["effort", "text", (c) => c],
    ["instructions", "text", (c) => c],
  ]);
  await addMissingColumns(db, "conversations", [["instructions", "text", (c) => c]]);
  await db.schema
    .createTable("project_channel_shares")
    .ifNotExists()
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("channel_id", "text", (c) => c.notNull())
    .addColumn("may_prompt", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("added_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("project_channel_shares_pk", ["project_id", "channel_id"])
    .execute();
}

export async function down(): Promise<void> {
  // Additive: an older version ignores the columns and the table.
}
