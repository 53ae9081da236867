import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Notes of one place (issue 34, "optionally per channel"):
// - `conversations.place`: the opaque id of where a conversation was started (the Slack adapter
//   passes its channel's id); null: nowhere in particular (the CLI, a schedule, the forge). The
//   engine never reads it as anything but an id to match a note's.
// - `memory_notes.channel_id` (reserved by 0037) now holds such a place id: a note kept for that
//   place only reaches conversations started there; null: the whole project.
// Additive and idempotent: an older version ignores the column.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "conversations", [["place", "text", (c) => c]]);
}

export async function down(): Promise<void> {
  // Additive: an older version ignores the column.
}
