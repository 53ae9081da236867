import type { Kysely } from "kysely";

// Frozen once landed. Decisions, incidents, specialist agents and their delegations, and
// notification preferences (seed 001). Unique keys on the source queue item make the outcome
// hook idempotent: recording the same outcome twice opens nothing twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("decisions")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("queue_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("question", "text", (c) => c.notNull())
    .addColumn("options", "text", (c) => c.notNull())
    .addColumn("allow_multiple", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allow_custom", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("OPEN"))
    .addColumn("answer", "text")
    .addColumn("answered_by", "text")
    .addColumn("response_queue_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("answered_at", "bigint")
    .execute();
  await db.schema.createIndex("idx_decisions_user_status").ifNotExists().on("decisions").columns(["user_id", "status"]).execute();

  await db.schema
    .createTable("incidents")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("queue_id", "text", (c) => c.notNull().unique())
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("OPEN"))
    .addColumn("error", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("auto_repair", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("repair_project_id", "text")
    .addColumn("repair_conversation_id", "text")
    .addColumn("repair_queue_id", "text")
    .addColumn("resolution", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_incidents_status").ifNotExists().on("incidents").column("status").execute();

  await db.schema
    .createTable("specialist_agents")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("capabilities", "text", (c) => c.notNull())
    .addColumn("summary", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("BUILDING"))
    .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("owner_id", "text")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("bootstrap_conversation_id", "text")
    .addColumn("bootstrap_queue_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_specialists_status").ifNotExists().on("specialist_agents").column("status").execute();

  await db.schema
    .createTable("specialist_delegations")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("source_conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("source_queue_id", "text", (c) => c.notNull().unique())
    .addColumn("parent_delegation_id", "text")
    .addColumn("specialist_id", "text")
    .addColumn("capability", "text", (c) => c.notNull())
    .addColumn("task", "text", (c) => c.notNull())
    .addColumn("context", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("depth", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("PENDING"))
    .addColumn("specialist_conversation_id", "text")
    .addColumn("queue_id", "text")
    .addColumn("result", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_delegations_status").ifNotExists().on("specialist_delegations").column("status").execute();
  await db.schema
    .createIndex("idx_delegations_conversation")
    .ifNotExists()
    .on("specialist_delegations")
    .columns(["specialist_conversation_id", "status"])
    .execute();
  await db.schema.createIndex("idx_delegations_parent").ifNotExists().on("specialist_delegations").column("parent_delegation_id").execute();

  await db.schema
    .createTable("notification_preferences")
    .ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("task_completion", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("decisions", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("incidents", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["notification_preferences", "specialist_delegations", "specialist_agents", "incidents", "decisions"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
