import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Adds scheduling and worker-tracking columns to prompt_queue, then the
// priority index — columns strictly before the index, so that an earlier table upgrades (S-Q-01).

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "prompt_queue", [
    ["priority", "integer", (c) => c.notNull().defaultTo(60)],
    ["delegation_depth", "integer", (c) => c.notNull().defaultTo(0)],
    ["origin_kind", "text", (c) => c.notNull().defaultTo("user")],
    ["slot_acquired_at", "bigint", (c) => c],
    ["error_code", "text", (c) => c],
    ["attempt", "integer", (c) => c.notNull().defaultTo(0)],
    ["worker_pid", "integer", (c) => c],
    ["worker_start_time", "text", (c) => c],
    ["claimed_at", "bigint", (c) => c],
    ["codex_pid", "integer", (c) => c],
    ["codex_start_time", "text", (c) => c],
    ["codex_started_at", "bigint", (c) => c],
    ["cancel_requested_at", "bigint", (c) => c],
    ["last_activity", "text", (c) => c],
    ["last_activity_at", "bigint", (c) => c],
    ["usage", "text", (c) => c],
    ["files_changed", "text", (c) => c],
  ]);
  await db.schema
    .createIndex("idx_prompt_queue_priority")
    .ifNotExists()
    .on("prompt_queue")
    .columns(["status", "priority desc", "seq"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("idx_prompt_queue_priority").ifExists().execute();
}
