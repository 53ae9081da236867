import type { Kysely } from "kysely";

// Frozen once landed. Usage and budgets (issue 21, item 2).
// `turn_usage`: one row per finished turn that reported token usage, written in the transaction
// that finishes its queue item: who it is charged to (`person`: the item's requester, else the
// conversation's person), its project, the model it asked for (null: Codex's configured one), the
// tokens THIS turn used (Codex reports running totals for a thread: the row keeps them in
// `total_*` so the next turn's share is the difference), and its agent time (`agent_ms`).
// `day` is the UTC day (YYYY-MM-DD) it finished, for per-day sums without date functions.
// `budgets`: an admin-set limit in tokens per project or person, daily and/or monthly (UTC).
// `budget_alerts`: a budget reached in one period, once: its insert is what tells admins once,
// across restarts and several `serve`. Times are epoch ms. Additive and idempotent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("turn_usage")
    .ifNotExists()
    .addColumn("queue_id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("person", "text")
    .addColumn("model", "text")
    .addColumn("input_tokens", "bigint", (c) => c.notNull())
    .addColumn("cached_input_tokens", "bigint", (c) => c.notNull())
    .addColumn("output_tokens", "bigint", (c) => c.notNull())
    .addColumn("total_input_tokens", "bigint", (c) => c.notNull())
    .addColumn("total_cached_input_tokens", "bigint", (c) => c.notNull())
    .addColumn("total_output_tokens", "bigint", (c) => c.notNull())
    .addColumn("agent_ms", "bigint", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("finished_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_turn_usage_project_finished")
    .ifNotExists()
    .on("turn_usage")
    .columns(["project_id", "finished_at"])
    .execute();
  await db.schema
    .createIndex("idx_turn_usage_person_finished")
    .ifNotExists()
    .on("turn_usage")
    .columns(["person", "finished_at"])
    .execute();
  await db.schema
    .createIndex("idx_turn_usage_finished")
    .ifNotExists()
    .on("turn_usage")
    .column("finished_at")
    .execute();
  await db.schema
    .createIndex("idx_turn_usage_conversation")
    .ifNotExists()
    .on("turn_usage")
    .columns(["conversation_id", "finished_at"])
    .execute();
  await db.schema
    .createTable("budgets")
    .ifNotExists()
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("daily_tokens", "bigint")
    .addColumn("monthly_tokens", "bigint")
    .addColumn("updated_by", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("budgets_pk", ["scope", "subject"])
    .execute();
  await db.schema
    .createTable("budget_alerts")
    .ifNotExists()
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("period_start", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("budget_alerts_pk", ["scope", "subject", "period", "period_start"])
    .execute();
}

export async function down(): Promise<void> {
  // Additive tables: an older version ignores them.
}
