import type { Kysely } from "kysely";

// Frozen once landed. Schedules (issue 21): a prompt a person asks to run in a project on a cron
// (five fields, read in `tz`). Each firing starts a conversation in `channel_id` through the same
// use case as a person's prompt, as `created_by`. `next_fire_at` (epoch ms) is advanced by a
// guarded UPDATE (`WHERE next_fire_at = <old>`) in the transaction that queues the firing's prompt:
// two coordinators can never both fire one minute. `status` is `active` or `paused`
// (`paused_reason`: `person` or `access_lost`); `catch_up` says what a firing missed while
// codexpi was down does at start: `once` (run it once) or `skip`; null: CODEXPI_SCHEDULE_CATCH_UP.
// Additive and idempotent: an older version never reads the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("schedules")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("channel_id", "text")
    .addColumn("cron", "text", (c) => c.notNull())
    .addColumn("tz", "text", (c) => c.notNull())
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("paused_reason", "text")
    .addColumn("catch_up", "text")
    .addColumn("next_fire_at", "bigint", (c) => c.notNull())
    .addColumn("last_fired_at", "bigint")
    .addColumn("last_conversation_id", "text")
    .addColumn("fired_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_schedules_due")
    .ifNotExists()
    .on("schedules")
    .columns(["status", "next_fire_at"])
    .execute();
}

export async function down(): Promise<void> {
  // An additive table: an older version ignores it.
}
