import { sql, type Kysely } from "kysely";

// Frozen once landed. Where each subject lives in Slack (its channel, its thread, its state
// message), owned by the Slack adapter and keyed by (subject kind, subject id), so that the
// notifier never writes Slack addresses into the engine's tables. Additive: the old columns
// (conversations.slack_thread_ts / slack_status_ts, remediation_runs and orchestrations
// .slack_thread_ts) stay in place, unused, for workers of an older version.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("slack_addresses")
    .ifNotExists()
    .addColumn("subject_kind", "text", (c) => c.notNull()) // conversation | run | orchestration
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("channel_id", "text", (c) => c.notNull())
    .addColumn("thread_ts", "text")
    .addColumn("status_ts", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("pk_slack_addresses", ["subject_kind", "subject_id"])
    .execute();
  // A reply in a thread finds its conversation by (channel, thread).
  await db.schema.createIndex("idx_slack_addresses_thread").ifNotExists().on("slack_addresses").columns(["channel_id", "thread_ts"]).execute();

  // Existing threads keep working: copy the addresses the domain tables hold (idempotent).
  await sql`
    INSERT INTO slack_addresses (subject_kind, subject_id, channel_id, thread_ts, status_ts, updated_at)
    SELECT 'conversation', id, slack_channel_id, slack_thread_ts, slack_status_ts, created_at
    FROM conversations WHERE slack_channel_id IS NOT NULL AND (slack_thread_ts IS NOT NULL OR slack_status_ts IS NOT NULL)
    ON CONFLICT DO NOTHING`.execute(db);
  for (const [kind, table] of [
    ["run", "remediation_runs"],
    ["orchestration", "orchestrations"],
  ] as const) {
    await sql`
      INSERT INTO slack_addresses (subject_kind, subject_id, channel_id, thread_ts, status_ts, updated_at)
      SELECT ${kind}, id, slack_channel_id, slack_thread_ts, slack_thread_ts, created_at
      FROM ${sql.table(table)} WHERE slack_channel_id IS NOT NULL AND slack_thread_ts IS NOT NULL
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("slack_addresses").ifExists().execute();
}
