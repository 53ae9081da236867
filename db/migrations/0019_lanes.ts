import type { Kysely } from "kysely";

// Frozen once landed. Work lanes (issue 18): in a project in `branch` mode each conversation
// works in a lane of its own, a sealed clone of the project under `<data dir>/lanes/` on a branch
// `codexpi/<short title>-<id>`. One row per conversation (at most one lane each): where the clone
// is, its branch, what it started from (the base branch, null when the project's HEAD was
// detached, and the exact commit), and its state: `active` while it may be used, then `merged`,
// `discarded` or `expired` (the retention sweep) once its clone is gone. Times are epoch ms.
// Additive and idempotent: a worker of an older version never reads the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lanes")
    .ifNotExists()
    .addColumn("conversation_id", "text", (c) =>
      c.primaryKey().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("branch", "text", (c) => c.notNull())
    .addColumn("base_branch", "text")
    .addColumn("base_commit", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema
    .createIndex("idx_lanes_status_updated")
    .ifNotExists()
    .on("lanes")
    .columns(["status", "updated_at"])
    .execute();
  await db.schema.createIndex("idx_lanes_project").ifNotExists().on("lanes").column("project_id").execute();
}

export async function down(): Promise<void> {
  // An additive table: an older version ignores it.
}
