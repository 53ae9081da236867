import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. CI failures from the forge (issue 33, item 5; src/forge/ciFailures.ts):
// - `forge_settings.fix_ci` (on | off, default off): whether a failed check on a pull request whose
//   conversation codexpi has gets a follow-up turn; `fix_ci_tries` (default 2): at most that many
//   per pull request.
// - `forge_ci_tries`: each follow-up a failure started, one per pull request (its thread key) and
//   failing commit, so that GitHub's `check_suite` and `workflow_run` for the same commit, or a
//   redelivery, make one try; counted per pull request against `fix_ci_tries`.
// Additive and idempotent: an older version never reads them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "forge_settings", [
    ["fix_ci", "text", (c) => c.notNull().defaultTo("off")],
    ["fix_ci_tries", "integer", (c) => c.notNull().defaultTo(2)],
  ]);
  await db.schema
    .createTable("forge_ci_tries")
    .ifNotExists()
    .addColumn("thread_key", "text", (c) => c.notNull())
    .addColumn("head_sha", "text", (c) => c.notNull())
    .addColumn("job", "text", (c) => c.notNull())
    .addColumn("queue_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("forge_ci_tries_pk", ["thread_key", "head_sha"])
    .execute();
}

export async function down(): Promise<void> {
  // Additive: an older version ignores them.
}
