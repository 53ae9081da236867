import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Nothing acknowledged is lost when a bot instance dies (issue 11).
//
// - `intake_requests` / `intake_signatures`: on PostgreSQL, every `serve` writes the Slack requests
//   it acks here (the shared journal) instead of its own intake file, so that a surviving instance
//   adopts what a dead one acked and never consumed. `owner` is the instance that consumes a row
//   (a lease owner id); the unique key is also the de-duplication of a Slack retry that reaches
//   another instance. On SQLite the tables exist and stay empty: the local intake file is kept
//   (a write there never waits behind another process's lock, see src/bot/intake/store.ts).
// - `prompt_queue.request_key`: the Slack request a prompt came from, unique, so that a request
//   replayed after its consumer died half-way queues its prompt once.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("intake_requests")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("received_at", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_at", "bigint")
    .addColumn("done_at", "bigint")
    .execute();
  await db.schema
    .createIndex("idx_intake_requests_open")
    .ifNotExists()
    .on("intake_requests")
    .columns(["status", "owner"])
    .execute();
  await db.schema
    .createTable("intake_signatures")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_intake_signatures_at")
    .ifNotExists()
    .on("intake_signatures")
    .column("at")
    .execute();
  await addMissingColumns(db, "prompt_queue", [["request_key", "text", (c) => c]]);
  await db.schema
    .createIndex("uq_prompt_queue_request_key")
    .ifNotExists()
    .on("prompt_queue")
    .column("request_key")
    .unique()
    .execute();
}
