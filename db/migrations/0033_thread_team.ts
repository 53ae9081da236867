import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. A thread is the team's (issue 32, items 2 and 3).
// `projects.thread_prompters`: who may follow up, stop and answer decisions in a conversation's
// thread: 'prompters' (anyone allowed to prompt the project; the default, existing projects
// included) or 'author' (the conversation's person, as before; the owner and admins always).
// `prompt_queue.writer_name`: the display name of a follow-up's writer when the agent is told
// who wrote it (a teammate's follow-up, or any follow-up of a thread others wrote in); null:
// not named. `slack_thread_notices`: the people told, once per thread, what they may do there
// (the Slack adapter's own rows; the key is what makes it once, across restarts and `serve`s).
// Additive and idempotent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [
    ["thread_prompters", "text", (c) => c.notNull().defaultTo("prompters")],
  ]);
  await addMissingColumns(db, "prompt_queue", [["writer_name", "text", (c) => c]]);
  await db.schema
    .createTable("slack_thread_notices")
    .ifNotExists()
    .addColumn("channel_id", "text", (c) => c.notNull())
    .addColumn("thread_ts", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("told_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("slack_thread_notices_pk", ["channel_id", "thread_ts", "user_id"])
    .execute();
}

export async function down(): Promise<void> {
  // Additive: an older version ignores the columns and the table.
}
