import { sql, type Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. The engine forgets Slack (issue 17): where a subject lives in Slack is the
// Slack adapter's own business, kept in `slack_addresses` (0009) alone.
//
// - `slack_addresses.origin`: how a conversation was asked (command | mention | dm), which the
//   notifier needs (a DM conversation's author is not pinged).
// - Every conversation, run and orchestration asked from Slack gets its address there if it has
//   none yet (one not posted yet: its channel, and for a mention or a DM the thread it was asked
//   in), conversations their origin; then the engine's columns go: conversations.slack_channel_id
//   / slack_thread_ts / slack_status_ts / slack_origin (and the index on the first two),
//   remediation_runs and orchestrations .slack_channel_id / slack_thread_ts.
// - `projects.slack_channel_id` is the project's home channel, a domain notion (visibility
//   `channel`): renamed `channel_id`, an opaque id a front end gives.
//
// Not additive, unlike 0009: a worker of an older version still running when this lands fails
// the writes that name the dropped columns (a conversation it creates on finishing, a run, a
// specialist's project). Upgrade with no agent running.
//
// SQLite's migrations are not transactional: each step looks before it acts, so that a migration
// interrupted half-way simply runs again. SQLite drops a column (3.35+) that no index uses.

/** The columns `table` has now. */
async function columnsOf(db: Kysely<unknown>, table: string): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  return new Set(tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? []);
}

async function dropColumns(db: Kysely<unknown>, table: string, names: string[]): Promise<void> {
  const existing = await columnsOf(db, table);
  for (const name of names) if (existing.has(name)) await db.schema.alterTable(table).dropColumn(name).execute();
}

/** Conversations: their addresses and origins copied, then the engine's columns dropped. */
async function conversations(db: Kysely<unknown>): Promise<void> {
  if (!(await columnsOf(db, "conversations")).has("slack_channel_id")) return;
  await sql`
    INSERT INTO slack_addresses (subject_kind, subject_id, channel_id, thread_ts, status_ts, origin, updated_at)
    SELECT 'conversation', id, slack_channel_id, slack_thread_ts, slack_status_ts, slack_origin, created_at
    FROM conversations WHERE slack_channel_id IS NOT NULL
    ON CONFLICT DO NOTHING`.execute(db);
  // Addresses 0009 copied, or the notifier recorded, lack the origin.
  await sql`
    UPDATE slack_addresses SET origin = (
      SELECT c.slack_origin FROM conversations c WHERE c.id = slack_addresses.subject_id)
    WHERE subject_kind = 'conversation' AND origin IS NULL`.execute(db);
  await db.schema.dropIndex("idx_conversations_slack_thread").ifExists().execute();
  await dropColumns(db, "conversations", ["slack_channel_id", "slack_thread_ts", "slack_status_ts", "slack_origin"]);
}

/** Runs and orchestrations: their addresses copied (a thread not posted yet: the channel alone). */
async function flows(db: Kysely<unknown>): Promise<void> {
  for (const [kind, table] of [
    ["run", "remediation_runs"],
    ["orchestration", "orchestrations"],
  ] as const) {
    if (!(await columnsOf(db, table)).has("slack_channel_id")) continue;
    await sql`
      INSERT INTO slack_addresses (subject_kind, subject_id, channel_id, thread_ts, status_ts, updated_at)
      SELECT ${sql.lit(kind)}, id, slack_channel_id, slack_thread_ts, slack_thread_ts, created_at
      FROM ${sql.table(table)} WHERE slack_channel_id IS NOT NULL
      ON CONFLICT DO NOTHING`.execute(db);
    await dropColumns(db, table, ["slack_channel_id", "slack_thread_ts"]);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "slack_addresses", [["origin", "text", (c) => c]]);
  await conversations(db);
  await flows(db);
  const projects = await columnsOf(db, "projects");
  if (projects.has("slack_channel_id") && !projects.has("channel_id"))
    await db.schema.alterTable("projects").renameColumn("slack_channel_id", "channel_id").execute();
}
