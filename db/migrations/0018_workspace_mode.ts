import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Work lanes (issue 18), first increment: a project's workspace mode.
// `projects.workspace_mode`: 'direct' (its conversations work in the project's one checkout, as
// every conversation did before) or 'branch' (each conversation in a lane of its own: a sealed
// clone on its own branch). Every project is 'direct' for now, new ones included: 'branch' becomes
// the default for a project that is a git repository only once lanes exist (a later migration or
// `addProject` decides it then); a directory that is not a repository stays 'direct'. Additive and
// idempotent: a worker of an older version ignores the column.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [
    ["workspace_mode", "text", (c) => c.notNull().defaultTo("direct")],
  ]);
}

export async function down(): Promise<void> {
  // An additive column: an older version ignores it.
}
