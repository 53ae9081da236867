import type { Kysely } from "kysely";

// Frozen once landed. The forge front end (issue 33, src/forge/): its own tables, which the engine
// never names. Times are epoch ms. Additive and idempotent: an older version never reads them.
// - `forge_deliveries`: each webhook delivery, journaled before it is acknowledged, keyed by the
//   forge and its delivery id (GitHub's `X-GitHub-Delivery`, GitLab's `X-Gitlab-Event-UUID`): a
//   redelivery finds its row and is not handled twice. `status` pending | done | failed; `outcome`
//   what handling it did (started, continued, not_linked, …); `root_ts` the Slack root posted for it.
// - `forge_settings`: a project's forge front-end settings (its channel, the handle, forks, and
//   the triggers it answers: `comments`, `issues`, comma-separated).
// - `forge_links`: a forge account (forge, lower-case login; its numeric id once seen) acting as a
//   Slack member. `forge_link_codes`: one-time codes a member posts on the forge to prove a link.
// - `forge_notices`: the "how to link" replies already posted (once per author and pull request).
// - `forge_threads`: the conversation of a pull request or issue; `forge_replies`: each turn whose
//   answer goes back to the forge, and the comment that carried it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("forge_deliveries")
    .ifNotExists()
    .addColumn("forge", "text", (c) => c.notNull())
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("received_at", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("outcome", "text")
    .addColumn("root_ts", "text")
    .addColumn("done_at", "bigint")
    .addPrimaryKeyConstraint("forge_deliveries_pk", ["forge", "delivery_id"])
    .execute();
  await db.schema
    .createIndex("idx_forge_deliveries_status")
    .ifNotExists()
    .on("forge_deliveries")
    .columns(["status", "received_at"])
    .execute();
  await db.schema
    .createTable("forge_settings")
    .ifNotExists()
    .addColumn("project_id", "text", (c) => c.primaryKey())
    .addColumn("channel_id", "text")
    .addColumn("handle", "text")
    .addColumn("forks", "text", (c) => c.notNull().defaultTo("off"))
    .addColumn("triggers", "text", (c) => c.notNull().defaultTo("comments,issues"))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("forge_links")
    .ifNotExists()
    .addColumn("forge", "text", (c) => c.notNull())
    .addColumn("login", "text", (c) => c.notNull())
    .addColumn("account_id", "text")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("made_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("forge_links_pk", ["forge", "login"])
    .execute();
  await db.schema
    .createTable("forge_link_codes")
    .ifNotExists()
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("forge", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("forge_notices")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("forge_threads")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("channel_id", "text", (c) => c.notNull())
    .addColumn("thread_ts", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("forge_replies")
    .ifNotExists()
    .addColumn("queue_id", "text", (c) => c.primaryKey())
    .addColumn("thread_key", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("waiting"))
    .addColumn("comment_url", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("posted_at", "bigint")
    .execute();
  await db.schema
    .createIndex("idx_forge_replies_status")
    .ifNotExists()
    .on("forge_replies")
    .column("status")
    .execute();
}

export async function down(): Promise<void> {
  // Additive tables: an older version ignores them.
}
