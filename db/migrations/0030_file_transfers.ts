import type { Kysely } from "kysely";

// Frozen once landed. Files between machines (a follow-up of issue 19): a project placed on a
// worker host runs where the bot's data directory is not, so the files shared with its prompts and
// those its agents hand back cross through the shared database.
// `file_chunks`: one file in pieces, under its owner (`in:<staging folder>/<name>`: a prompt's
// staged file; `out:<queue id>`: a turn's hand-back) and its name; `data` is base64 text (one
// column type on both dialects), at most 4 MiB of it per row. Rows leave once the file is
// delivered, or with housekeeping. Times are epoch ms. Additive and idempotent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("file_chunks")
    .ifNotExists()
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("file_chunks_pk", ["owner", "name", "seq"])
    .execute();
  await db.schema
    .createIndex("idx_file_chunks_created")
    .ifNotExists()
    .on("file_chunks")
    .column("created_at")
    .execute();
}

export async function down(): Promise<void> {
  // An additive table: an older version ignores it.
}
