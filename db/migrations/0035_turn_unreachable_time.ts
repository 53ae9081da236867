import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. How long a turn waited for a model it could not reach (issue 32, item 5:
// "Done in" counts the time spent working, not the retries). `prompt_queue.unreachable_ms`: the
// milliseconds the turn's model gateway held Codex's requests while the model could not be
// reached; null for turns recorded before it (counted whole, as they were). Additive: a worker of
// an older version ignores it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "prompt_queue", [["unreachable_ms", "integer", (c) => c]]);
}

export async function down(): Promise<void> {
  // An additive column: an older version ignores it.
}
