import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Thread context (issue 19, item 1): `prompt_queue.thread_context` is the Slack
// context a front end gave with the prompt (JSON, engine/threadContext/model.ts: the thread's
// earlier messages, or those since the agent's last turn), kept with the queued item so that a
// restart between intake and the turn loses nothing; it is quoted into the prompt when the turn
// runs. `slack_addresses.context_ts` (the Slack adapter's own column): the newest message of the
// conversation's thread already given to its agent, as a prompt or as context; the next
// follow-up carries what people posted after it.
// Additive and idempotent: an older worker ignores them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "prompt_queue", [["thread_context", "text", (c) => c]]);
  await addMissingColumns(db, "slack_addresses", [["context_ts", "text", (c) => c]]);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
