import type { Kysely } from "kysely";

// Frozen once landed. Orchestrations (seed 004): a guarded change worked on a dedicated branch in
// a git worktree, and its history of events. Additive only; `ifNotExists` everywhere so that a
// migration interrupted half-way can simply run again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("orchestrations")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("owner_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("request", "text", (c) => c.notNull())
    .addColumn("acceptance_criteria", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("tests", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("engine", "text", (c) => c.notNull().defaultTo("codex"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("DRAFT_REVIEW"))
    .addColumn("draft", "text", (c) => c.notNull())
    .addColumn("draft_version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("draft_hash", "text", (c) => c.notNull())
    .addColumn("draft_feedback", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("base_branch", "text")
    .addColumn("base_revision", "text")
    .addColumn("branch", "text")
    .addColumn("worktree_path", "text")
    .addColumn("conversation_id", "text")
    .addColumn("queue_id", "text")
    .addColumn("verified_revision", "text")
    .addColumn("approved_revision", "text")
    .addColumn("merged_revision", "text")
    .addColumn("verification", "text")
    .addColumn("last_error", "text")
    .addColumn("claim_token", "text")
    .addColumn("claim_expires_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  // The tick looks up live states only (agents running, claims to recover): by status, then expiry.
  await db.schema.createIndex("idx_orchestrations_status").ifNotExists().on("orchestrations").columns(["status", "claim_expires_at"]).execute();
  await db.schema.createIndex("idx_orchestrations_project").ifNotExists().on("orchestrations").column("project_id").execute();
  // The worker finds an orchestration's worktree from its conversation.
  await db.schema.createIndex("idx_orchestrations_conversation").ifNotExists().on("orchestrations").column("conversation_id").execute();

  await db.schema
    .createTable("orchestration_events")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("orchestration_id", "text", (c) => c.notNull().references("orchestrations.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("queue_id", "text")
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_orchestration_events_orchestration").ifNotExists().on("orchestration_events").columns(["orchestration_id", "id"]).execute();
  // An agent item finishes once: its `agent.finished` (or `agent.failed`) is recorded once.
  await db.schema.createIndex("uq_orchestration_events_item").ifNotExists().on("orchestration_events").columns(["queue_id", "kind"]).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("orchestration_events").ifExists().execute();
  await db.schema.dropTable("orchestrations").ifExists().execute();
}
