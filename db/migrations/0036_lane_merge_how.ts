import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. How a lane's merge went (issue 32, item 6): `lanes.merged_how` is
// `fast-forward`, `merge-commit` or `already-merged`, as the merge answered, so that the card says
// "Fast-forwarded" when no merge commit was made. Null for lanes merged before this migration (the
// card then says only that it was merged, not how) and for lanes not merged. Additive and
// idempotent: an older worker ignores it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "lanes", [["merged_how", "text", (c) => c]]);
}

export async function down(): Promise<void> {
  // An additive column: an older version ignores it.
}
