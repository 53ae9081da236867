import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Files shared with a prompt (issue 19, item 2): `prompt_queue.attachments` is
// the JSON list of the files the bot downloaded for that request into the data directory's staging
// area (name, kind, size, where staged); the worker moves them into the workspace's
// `.codexpi/inbox/` before the turn. Null: no file came with the prompt.
// Additive and idempotent: an older worker ignores it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "prompt_queue", [["attachments", "text", (c) => c]]);
}

export async function down(): Promise<void> {
  // An additive column: an older version ignores it.
}
