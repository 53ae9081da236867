import type { Selectable } from "kysely";

// Row type of db/migrations/0037_project_memory. Times are epoch milliseconds.

/**
 * A note's state: an agent's `proposed` note waits for a click and never reaches an agent; only
 * `kept` notes do; `discarded` (a proposal nobody kept) and `forgotten` (a kept note removed) stay
 * as rows so that an outcome recorded twice does not propose again.
 */
export type NoteStatus = "proposed" | "kept" | "discarded" | "forgotten";

/** Whose words a note is: a person's (`/codex remember`, the CLI) or an agent's proposal. */
export type NoteSource = "person" | "agent";

/** A short text a project's people keep for its agents. */
export interface MemoryNotesTable {
  id: string;
  project_id: string;
  /** The opaque place (a Slack channel's id) it is kept for (migration 0041); null: the whole project. */
  channel_id: string | null;
  text: string;
  status: NoteStatus;
  source: NoteSource;
  /** Who added it: a Slack user id, `cli`, or for a proposal `agent:<conversation id>`. */
  added_by: string;
  /** Who kept, edited, discarded or forgot it last. */
  decided_by: string | null;
  /** The conversation it came from (an agent's proposal's; null from a command). */
  conversation_id: string | null;
  /** The turn whose answer proposed it (unique): one proposal per turn. */
  queue_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A note row as read. */
export type MemoryNote = Selectable<MemoryNotesTable>;

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its table to it.
declare module "../schema.js" {
  interface DB {
    memory_notes: MemoryNotesTable;
  }
}
