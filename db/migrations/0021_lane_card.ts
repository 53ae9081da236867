import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. A lane's card (issue 18): what the card shows once the lane's clone is gone,
// and how its work left. `lanes.summary`: the last changes read (commits and files with their
// +/− lines, JSON, without the diff); `pushed_remote`/`pushed_at`: the branch pushed; `pr_url`,
// `pr_number`, `pr_state`: its pull (merge) request as the forge last said; `conflict_files`: the
// files the last refused merge named (JSON), cleared by a merge; `ended_by` and `merged_revision`:
// who merged or discarded it, and the project's commit after a merge. `projects.prompters_merge`:
// 1 when a conversation's person may merge its lane into the project (else its owner and admins).
// Additive and idempotent: an older worker ignores them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "lanes", [
    ["summary", "text", (c) => c],
    ["pushed_remote", "text", (c) => c],
    ["pushed_at", "bigint", (c) => c],
    ["pr_url", "text", (c) => c],
    ["pr_number", "integer", (c) => c],
    ["pr_state", "text", (c) => c],
    ["conflict_files", "text", (c) => c],
    ["ended_by", "text", (c) => c],
    ["merged_revision", "text", (c) => c],
  ]);
  await addMissingColumns(db, "projects", [["prompters_merge", "integer", (c) => c.notNull().defaultTo(0)]]);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
