import type { Kysely } from "kysely";
import { sql } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Setup, once per base (issue 31, item 4).
// `projects.setup_command`: the setup an admin set (`project set NAME --setup "…"`), run as
// `/bin/sh -c` inside the jail; null: the repository's committed `.codexpi/setup`, if any.
// `lanes.setup_hash`: what prepared the lane — the setup's hash, `none` when the project had no
// setup — or null while it is not prepared (a lane made but whose setup failed or was cut short:
// its next turn runs the setup again). Lanes made before this migration count as prepared
// (`none`): they never had a setup, and running one over an agent's work would be a surprise.
// Additive and idempotent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [["setup_command", "text", (c) => c]]);
  await addMissingColumns(db, "lanes", [["setup_hash", "text", (c) => c]]);
  // Run again only when this migration was cut short, before any lane of the new version exists.
  await sql`UPDATE lanes SET setup_hash = 'none' WHERE setup_hash IS NULL`.execute(db);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
