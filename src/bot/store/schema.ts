import type { Generated } from "../../engine/api/model.js";

// Row types of the Slack adapter's own tables (db/migrations 0003, 0009, 0010, 0015, 0017, 0023, 0033). The
// engine never names them: they join its schema here, for the bot's store alone. Times are epoch
// milliseconds.

/** A Slack event already handled (Slack retries an event it thinks was not acked). */
export interface SlackEventsTable {
  event_id: string;
  received_at: number;
}

/** A Slack request acked by a bot instance (the shared intake journal, PostgreSQL only). */
export interface IntakeRequestsTable {
  id: Generated<number>;
  key: string;
  kind: string;
  body: string;
  /** The bot instance that consumes it (a lease owner id); a survivor adopts a dead one's rows. */
  owner: string;
  received_at: number;
  status: Generated<"pending" | "waiting" | "done">;
  attempts: Generated<number>;
  next_at: number | null;
  done_at: number | null;
}

/** A signed request already accepted (the replay refusal, shared by every bot instance). */
export interface IntakeSignaturesTable {
  key: string;
  at: number;
}

/** A channel's default project (the Slack adapter's own table). */
export interface SlackChannelDefaultsTable {
  channel_id: string;
  project_id: string;
  set_by: string;
  updated_at: number;
  /** The channel's settings for its project's requests (migration 0034); null: the project's defaults. */
  model: Generated<string | null>;
  effort: Generated<string | null>;
  instructions: Generated<string | null>;
}

/** How a conversation was asked in Slack: `/codex ask`, a mention, a DM. */
export type SlackOrigin = "command" | "mention" | "dm";

/** Where a subject (conversation, run, orchestration) lives in Slack: the Slack adapter's own rows. */
export interface SlackAddressesTable {
  subject_kind: "conversation" | "run" | "orchestration";
  subject_id: string;
  channel_id: string;
  thread_ts: string | null;
  status_ts: string | null;
  /** How a conversation was asked (migration 0017); null for runs and orchestrations. */
  origin: SlackOrigin | null;
  /** The newest message of a conversation's thread already given to its agent (migration 0023). */
  context_ts: string | null;
  updated_at: number;
}

/** A message the notifier posts once (exactly-once posting: intent, metadata key, reconcile). */
export interface SlackPostsTable {
  key: string;
  outbox_id: number;
  conversation_id: string | null;
  purpose: "status" | "answer" | "notice" | "file" | "interim" | "stream";
  channel_id: string;
  thread_ts: string | null;
  ts: string | null;
  status: "sending" | "posted";
  created_at: number;
}

/** Someone told, once, in a conversation's thread, what they may do there (migration 0033). */
export interface SlackThreadNoticesTable {
  channel_id: string;
  thread_ts: string;
  user_id: string;
  told_at: number;
}

// The engine's schema (src/engine/schema.ts) is shared; the Slack adapter adds its tables to it.
declare module "../../engine/schema.js" {
  interface DB {
    slack_events: SlackEventsTable;
    intake_requests: IntakeRequestsTable;
    intake_signatures: IntakeSignaturesTable;
    slack_posts: SlackPostsTable;
    slack_addresses: SlackAddressesTable;
    slack_channel_defaults: SlackChannelDefaultsTable;
    slack_thread_notices: SlackThreadNoticesTable;
  }
}
