import { sql, type Kysely } from "kysely";

// Frozen once landed: later changes go in a new numbered migration.
// Written with the schema builder (portable to PostgreSQL) and idempotent (ifNotExists),
// because kysely's migration lock is a no-op on SQLite and a crash may leave one half-applied.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("projects")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("owner_id", "text")
    .addColumn("full_access", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("execution_group", "text")
    .addColumn("merge_confirmation_required", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("slack_channel_id", "text")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("project"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // At most one master and one self project.
  await db.schema
    .createIndex("uq_projects_special_role")
    .ifNotExists()
    .on("projects")
    .column("role")
    .unique()
    .where(sql.ref("role"), "<>", "project")
    .execute();

  await db.schema
    .createTable("users")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("display_name", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("conversations")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("idle"))
    .addColumn("worker_pid", "integer")
    .addColumn("codex_thread_id", "text")
    .addColumn("slack_channel_id", "text")
    .addColumn("slack_thread_ts", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("idx_conversations_project").ifNotExists().on("conversations").column("project_id").execute();
  await db.schema
    .createIndex("idx_conversations_slack_thread")
    .ifNotExists()
    .on("conversations")
    .columns(["slack_channel_id", "slack_thread_ts"])
    .execute();

  await db.schema
    .createTable("messages")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("queue_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("idx_messages_conversation")
    .ifNotExists()
    .on("messages")
    .columns(["conversation_id", "created_at"])
    .execute();
  await db.schema.createIndex("idx_messages_queue").ifNotExists().on("messages").column("queue_id").execute();

  // Priority, delegation depth, origin and slot columns arrive in 0002 (S-Q-01 upgrades such a table).
  await db.schema
    .createTable("prompt_queue")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("error", "text")
    .addColumn("requested_by", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("started_at", "bigint")
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema.createIndex("uq_prompt_queue_seq").ifNotExists().on("prompt_queue").column("seq").unique().execute();
  await db.schema
    .createIndex("idx_prompt_queue_conversation")
    .ifNotExists()
    .on("prompt_queue")
    .columns(["conversation_id", "status"])
    .execute();

  await db.schema
    .createTable("leases")
    .ifNotExists()
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("acquired_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("outbox")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("done_at", "bigint")
    .execute();
  await db.schema
    .createIndex("idx_outbox_pending")
    .ifNotExists()
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("runtime_policies")
    .ifNotExists()
    .addColumn("scope", "text", (c) => c.primaryKey()) // 'global' or a project id
    .addColumn("max_concurrent", "integer")
    .addColumn("load_pause_percent", "integer")
    .addColumn("memory_pause_percent", "integer")
    .addColumn("background_start_hour", "integer")
    .addColumn("background_end_hour", "integer")
    .addColumn("updated_by", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["runtime_policies", "outbox", "leases", "prompt_queue", "messages", "conversations", "users", "projects"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
