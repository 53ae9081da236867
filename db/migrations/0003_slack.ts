import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. What the Slack adapter needs to deliver without loss or duplicates.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Slack retries events (and delivers an @mention in a thread twice): remember what we handled.
  await db.schema
    .createTable("slack_events")
    .ifNotExists()
    .addColumn("event_id", "text", (c) => c.primaryKey())
    .addColumn("received_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_slack_events_received").ifNotExists().on("slack_events").column("received_at").execute();

  // Every message the notifier posts: intent first ('sending'), then the ts Slack gave it
  // ('posted'). A 'sending' row after a crash is an unknown outcome, reconciled before re-posting.
  await db.schema
    .createTable("slack_posts")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey()) // `${outbox_id}:${step}`
    .addColumn("outbox_id", "integer", (c) => c.notNull())
    .addColumn("conversation_id", "text")
    .addColumn("purpose", "text", (c) => c.notNull()) // status | answer | notice | file
    .addColumn("channel_id", "text", (c) => c.notNull())
    .addColumn("thread_ts", "text")
    .addColumn("ts", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_slack_posts_conversation")
    .ifNotExists()
    .on("slack_posts")
    .columns(["conversation_id", "purpose"])
    .execute();

  // Per-thread ordering and the notifier's claim on an event.
  await addMissingColumns(db, "outbox", [
    ["ordering_key", "text", (c) => c],
    ["claimed_by", "text", (c) => c],
  ]);
  await db.schema.createIndex("idx_outbox_ordering").ifNotExists().on("outbox").columns(["status", "ordering_key", "id"]).execute();

  // Where a conversation's state message lives (the thread root for /codex ask, else a reply).
  await addMissingColumns(db, "conversations", [
    ["slack_status_ts", "text", (c) => c],
    ["slack_origin", "text", (c) => c], // command | mention | dm | cli
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("slack_posts").ifExists().execute();
  await db.schema.dropTable("slack_events").ifExists().execute();
}
