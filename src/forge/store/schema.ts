// Row types of the forge front end's own tables (db/migrations/0038). The engine never names them:
// they join its schema here, for the forge's store alone. Times are epoch milliseconds.

/** Which forge a row is about. */
export type ForgeName = "github" | "gitlab";

/** One webhook delivery, journaled before it is acknowledged. */
export interface ForgeDeliveriesTable {
  forge: ForgeName;
  delivery_id: string;
  event: string;
  project_id: string;
  body: string;
  received_at: number;
  status: "pending" | "done" | "failed";
  attempts: number;
  outcome: string | null;
  root_ts: string | null;
  done_at: number | null;
}

/** A project's forge front-end settings. */
export interface ForgeSettingsTable {
  project_id: string;
  channel_id: string | null;
  handle: string | null;
  forks: "on" | "off";
  /** The triggers answered, comma-separated: `comments`, `issues`, `ci` (default the first two). */
  triggers: string;
  /** Whether a failed check on a pull request codexpi has a conversation for gets a follow-up (0040). */
  fix_ci: "on" | "off";
  /** At most this many such follow-ups per pull request (0040). */
  fix_ci_tries: number;
  /**
   * Whether the coordinator polls the forge for the project's new comments (0042; optional here:
   * the column has its default, and the rest of the settings are written without it).
   */
  poll?: "on" | "off";
  /** When polling was turned on (null while off): nothing older is acted on (0042). */
  poll_from?: number | null;
  updated_at: number;
}

/** A forge account acting as a Slack member. */
export interface ForgeLinksTable {
  forge: ForgeName;
  login: string;
  account_id: string | null;
  user_id: string;
  made_by: string;
  created_at: number;
}

/** A one-time code proving a link from the forge. */
export interface ForgeLinkCodesTable {
  code: string;
  forge: ForgeName;
  user_id: string;
  expires_at: number;
}

/** A notice posted once (per author and pull request). */
export interface ForgeNoticesTable {
  key: string;
  created_at: number;
}

/** The conversation of a pull request or issue, and its Slack thread. */
export interface ForgeThreadsTable {
  key: string;
  project_id: string;
  conversation_id: string;
  channel_id: string;
  thread_ts: string;
  created_at: number;
}

/** A turn whose answer goes back to the forge. */
export interface ForgeRepliesTable {
  queue_id: string;
  thread_key: string;
  status: "waiting" | "posting" | "posted";
  comment_url: string | null;
  created_at: number;
  posted_at: number | null;
}

/** A follow-up a failed check started: one per pull request and failing commit (0040). */
export interface ForgeCiTriesTable {
  thread_key: string;
  head_sha: string;
  job: string;
  queue_id: string | null;
  created_at: number;
}

/** Where one of a project's polled listings was read up to (0042). */
export interface ForgePollCursorsTable {
  project_id: string;
  /** Which listing: `github:issue_comments`, `github:review_comments`, `gitlab:notes`. */
  listing: string;
  since: string | null;
  last_id: string | null;
  etag: string | null;
  updated_at: number;
}

declare module "../../engine/schema.js" {
  interface DB {
    forge_deliveries: ForgeDeliveriesTable;
    forge_settings: ForgeSettingsTable;
    forge_links: ForgeLinksTable;
    forge_link_codes: ForgeLinkCodesTable;
    forge_notices: ForgeNoticesTable;
    forge_threads: ForgeThreadsTable;
    forge_replies: ForgeRepliesTable;
    forge_ci_tries: ForgeCiTriesTable;
    forge_poll_cursors: ForgePollCursorsTable;
  }
}
