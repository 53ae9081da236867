import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Approvals (issue 10): a command or file change an agent wants outside its
// sandbox waits for a person's answer. A request is keyed by Codex's thread, item and approval id
// (never the JSON-RPC id, which a new app-server process would number again), so that the same
// request replayed finds the same row. `projects.approval_mode`: `never` (Codex is never asked to
// ask: today's behaviour) or `on-request` (escalations ask).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("approvals")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("queue_id", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("codex_thread_id", "text", (c) => c.notNull())
    .addColumn("turn_id", "text", (c) => c.notNull())
    .addColumn("item_id", "text", (c) => c.notNull())
    .addColumn("approval_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("command", "text")
    .addColumn("cwd", "text")
    .addColumn("reason", "text")
    .addColumn("diff", "text")
    .addColumn("files", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("answered_by", "text")
    .addColumn("answered_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("uq_approvals_request", ["codex_thread_id", "item_id", "approval_id"])
    .execute();
  // The expiry tick reads pending rows by deadline; a finishing item closes its own pending rows.
  await db.schema.createIndex("idx_approvals_status_expires").ifNotExists().on("approvals").columns(["status", "expires_at"]).execute();
  await db.schema.createIndex("idx_approvals_queue").ifNotExists().on("approvals").column("queue_id").execute();
  await addMissingColumns(db, "projects", [["approval_mode", "text", (c) => c.notNull().defaultTo("never")]]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("idx_approvals_queue").ifExists().execute();
  await db.schema.dropIndex("idx_approvals_status_expires").ifExists().execute();
  await db.schema.dropTable("approvals").ifExists().execute();
}
