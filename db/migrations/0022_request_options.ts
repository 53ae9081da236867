import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Per-request options (issue 19): `conversations.model`, `effort` and
// `base_branch` are what the person asked for with `model=`, `effort=` and `branch=` (null: Codex's
// configured default, and the project's branch for a lane's base); every turn of the conversation
// runs with them. `projects.allowed_models`: the models an admin allows there, a JSON array of names
// (null: only the configured default, so no `model=` is accepted).
// Additive and idempotent: an older worker ignores them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "conversations", [
    ["model", "text", (c) => c],
    ["effort", "text", (c) => c],
    ["base_branch", "text", (c) => c],
  ]);
  await addMissingColumns(db, "projects", [["allowed_models", "text", (c) => c]]);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
