import { sql, type Kysely } from "kysely";

// Frozen once landed. Autonomous runs (seed 000): a run, its plan's steps, its event log and the
// self-repairs sent when it blocks. Table names follow the seed (remediation_*). Purely additive
// and idempotent (ifNotExists), so that a worker of an older version keeps working beside it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("remediation_runs")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("RUNNING"))
    .addColumn("stage", "text", (c) => c.notNull().defaultTo("PLAN_REVIEW"))
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("master_project_id", "text", (c) => c.notNull())
    .addColumn("master_conversation_id", "text")
    .addColumn("current_step_id", "text")
    .addColumn("active_queue_id", "text")
    .addColumn("self_repair_id", "text")
    .addColumn("correction_round", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("review_restarts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("blocked_stage", "text")
    .addColumn("block_code", "text")
    .addColumn("error", "text")
    .addColumn("final_report", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  // The tick looks runs up by status only: live runs, never the history.
  await db.schema.createIndex("idx_remediation_runs_status").ifNotExists().on("remediation_runs").column("status").execute();
  await db.schema.createIndex("idx_remediation_runs_owner").ifNotExists().on("remediation_runs").columns(["owner_id", "created_at"]).execute();
  // One active run in the whole installation (BLOCKED counts), even across processes.
  await db.schema
    .createIndex("uq_remediation_runs_active")
    .ifNotExists()
    .on("remediation_runs")
    .expression(sql`(1)`)
    .unique()
    .where(sql<boolean>`status in ('RUNNING', 'BLOCKED')`)
    .execute();

  await db.schema
    .createTable("remediation_step_runs")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("run_id", "text", (c) => c.notNull().references("remediation_runs.id").onDelete("cascade"))
    .addColumn("step_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("phase", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("phase_label", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("risk", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("aliases", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("PENDING"))
    .addColumn("conversation_id", "text")
    .addColumn("queue_id", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("feedback", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema.createIndex("uq_remediation_step_runs_step").ifNotExists().on("remediation_step_runs").columns(["run_id", "step_id"]).unique().execute();
  await db.schema.createIndex("idx_remediation_step_runs_position").ifNotExists().on("remediation_step_runs").columns(["run_id", "position"]).execute();

  await db.schema
    .createTable("remediation_run_events")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("run_id", "text", (c) => c.notNull().references("remediation_runs.id").onDelete("cascade"))
    .addColumn("step_id", "text")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_remediation_run_events_run").ifNotExists().on("remediation_run_events").columns(["run_id", "id"]).execute();

  await db.schema
    .createTable("remediation_self_repairs")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("run_id", "text", (c) => c.notNull().references("remediation_runs.id").onDelete("cascade"))
    .addColumn("step_id", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("RUNNING"))
    .addColumn("blocked_stage", "text", (c) => c.notNull())
    .addColumn("block_code", "text", (c) => c.notNull())
    .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("queue_id", "text", (c) => c.notNull())
    .addColumn("feedback", "text")
    .addColumn("prompt_addendum", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema.createIndex("idx_remediation_self_repairs_status").ifNotExists().on("remediation_self_repairs").column("status").execute();
  await db.schema.createIndex("idx_remediation_self_repairs_run").ifNotExists().on("remediation_self_repairs").columns(["run_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["remediation_self_repairs", "remediation_run_events", "remediation_step_runs", "remediation_runs"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
