import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Steering (issue 10): a person's follow-up written while the conversation's
// turn runs on the app-server runner may be sent into that turn (`turn/steer`) instead of waiting.
// `projects.steer`: 0 (today's behaviour: it queues) or 1, admin-set. On a running item,
// `steer_turn_id` is the app-server turn its worker can steer (set once the turn started, cleared
// when it is over); on a follow-up, `steered_into` is the running item whose turn took it (its
// status is then `steered`: it never runs as a turn of its own).

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [["steer", "integer", (c) => c.notNull().defaultTo(0)]]);
  await addMissingColumns(db, "prompt_queue", [
    ["steer_turn_id", "text", (c) => c],
    ["steered_into", "text", (c) => c],
  ]);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
