import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Project memory (issue 34): short notes a project's people keep for its
// agents, given to every turn of the project (engine/memory).
// `memory_notes`: one row per note or proposal. `status` is `proposed` (an agent's
// CODEXPI_REMEMBER, waiting for a click: never given to an agent), `kept`, `discarded` (a
// proposal nobody kept) or `forgotten` (a kept note removed); only `kept` notes reach agents.
// `source` says who wrote the words (`person` or `agent`); `added_by` who added it (a Slack user
// id, `cli`, or for a proposal `agent:<conversation id>`), `decided_by` who kept, discarded or
// forgot it last; `conversation_id` the conversation it came from; `queue_id` (unique) the turn
// whose answer proposed it, so that an outcome recorded twice proposes once. `channel_id` is
// reserved for notes of one channel (null: the whole project). Times are epoch ms.
// `projects.memory_writers`: who keeps notes besides the project's owner and admins: `owners`
// (nobody else, the default) or `prompters` (everyone allowed to prompt it).
// Additive and idempotent: an older version never reads the table or the column.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("memory_notes")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("channel_id", "text")
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("added_by", "text", (c) => c.notNull())
    .addColumn("decided_by", "text")
    .addColumn("conversation_id", "text")
    .addColumn("queue_id", "text", (c) => c.unique())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_memory_notes_project")
    .ifNotExists()
    .on("memory_notes")
    .columns(["project_id", "status"])
    .execute();
  await addMissingColumns(db, "projects", [
    ["memory_writers", "text", (c) => c.notNull().defaultTo("owners")],
  ]);
}

export async function down(): Promise<void> {
  // An additive table and column: an older version ignores them.
}
