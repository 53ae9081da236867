import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Polling the forge (issue 33, item 1: installs without a public URL;
// src/forge/polling/):
// - `forge_settings.poll` (on | off, default off): whether the coordinator reads the project's
//   new comments from the forge's API; `poll_from` (epoch ms, null while off): when it was turned
//   on — nothing written on the forge before then is acted on.
// - `forge_poll_cursors`: where each of a project's listings was read up to (`since`: the last
//   item's time; `last_id`: GitLab's last event id; `etag`: the answer's ETag, sent back as
//   `If-None-Match` while `since` is the same), durable so that a restart neither misses a comment
//   nor handles one twice.
// Additive and idempotent: an older version never reads them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "forge_settings", [
    ["poll", "text", (c) => c.notNull().defaultTo("off")],
    ["poll_from", "bigint", (c) => c],
  ]);
  await db.schema
    .createTable("forge_poll_cursors")
    .ifNotExists()
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("listing", "text", (c) => c.notNull())
    .addColumn("since", "text")
    .addColumn("last_id", "text")
    .addColumn("etag", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("forge_poll_cursors_pk", ["project_id", "listing"])
    .execute();
}

export async function down(): Promise<void> {
  // Additive: an older version ignores them.
}
