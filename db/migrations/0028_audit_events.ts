import type { Kysely } from "kysely";

// Frozen once landed. The audit trail (issue 21): one row per change a person or an agent made
// through codexpi, appended, never updated. `at` epoch ms; `actor` a Slack user id,
// `agent:<conversation id>`, `schedule:<id>` or `cli:<os user>`; `via` slack | cli | schedule |
// agent; `action` (`conversation.ask`, `lane.merge`, …); `target` (`project:<name>`,
// `conversation:<id>`, …) and `project` (its name, when there is one, for filtering); `outcome` ok |
// refused | failed with a short `reason`; `detail` redacted text. Swept after the retention.
// Additive and idempotent: an older version never reads the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("audit_events")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("via", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("project", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("detail", "text")
    .execute();
  await db.schema.createIndex("idx_audit_at").ifNotExists().on("audit_events").column("at").execute();
  await db.schema
    .createIndex("idx_audit_project_at")
    .ifNotExists()
    .on("audit_events")
    .columns(["project", "at"])
    .execute();
}

export async function down(): Promise<void> {
  // An additive table: an older version ignores it.
}
