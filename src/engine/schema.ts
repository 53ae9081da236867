import type { Generated, Selectable } from "kysely";

// Row types of the database, matching db/migrations. Times are epoch milliseconds.

/** How a project's agents (and its setup) reach the network (engine/network reads it). */
export type NetworkMode = "off" | "allowlist" | "open";

/** Where a project stands among codexpi's own agents. */
export type ProjectRole = "project" | "master" | "self";

export interface ProjectsTable {
  id: string;
  name: string;
  path: string;
  owner_id: string | null;
  full_access: number;
  execution_group: string | null;
  merge_confirmation_required: number;
  /**
   * The project's home channel: an opaque id a front end gives (`--channel`). With visibility
   * `channel`, that channel's members may read it (renamed by migration 0017).
   */
  channel_id: string | null;
  role: Generated<ProjectRole>;
  created_at: number;
  /** Whether Codex may ask a person before an escalation (`on-request`) or never asks (`never`). */
  approval_mode: Generated<ApprovalMode>;
  /** Who may read its conversations besides its owner and admins: 'private' or 'channel' (its channel's members). */
  visibility: Generated<ProjectVisibility>;
  /** 1 when a follow-up may be sent into the running app-server turn (`turn/steer`) instead of queueing. */
  steer: Generated<number>;
  /** The worker host it is placed on (`codexpi host --name`); null: the coordinator's own machine. */
  host: Generated<string | null>;
  /**
   * Where its conversations work: 'direct' in the project's one checkout, one agent at a time;
   * 'branch' each in a lane of its own (issue 18, engine/lanes).
   */
  workspace_mode: Generated<WorkspaceMode>;
  /** The git remote its branches are pushed to (migration 0020). */
  remote: Generated<string>;
  /** Where its pull (merge) requests open; null: derived from the remote's URL (github.com, gitlab.com). */
  forge: Generated<"github" | "gitlab" | null>;
  /** The forge API's base URL (https://api.github.com, https://host/api/v3, https://host/api/v4). */
  forge_url: Generated<string | null>;
  /** "owner/name", GitLab's "group/sub/name" or numeric id; null: derived from the remote's URL. */
  forge_repo: Generated<string | null>;
  /** 1 when a conversation's person may merge its lane into the project (migration 0021). */
  prompters_merge: Generated<number>;
  /** Models an admin allows for `model=`, a JSON array; null: only the configured default (0022). */
  allowed_models: Generated<string | null>;
  /** How its agents reach the network: 'off', 'allowlist' (only `network_hosts`) or 'open' (0031). */
  network_mode: Generated<NetworkMode>;
  /** The hosts an allowlist lets through: a JSON array of entries (`formatHostEntry`), '[]' for none. */
  network_hosts: Generated<string>;
  /** The admin-set setup (`--setup "…"`, run as `sh -c` in the jail); null: `.codexpi/setup` if committed (0032). */
  setup_command: Generated<string | null>;
  /** Who keeps its notes besides its owner and admins: 'owners' (nobody else) or 'prompters' (0037). */
  memory_writers: Generated<MemoryWriters>;
  /** Who may follow up, stop and answer decisions in its conversations' threads (0033, projectRights.ts). */
  thread_prompters: Generated<ThreadPrompters>;
}

/** Who may keep a project's notes besides its owner and admins (engine/memory). */
export type MemoryWriters = "owners" | "prompters";

/**
 * Who drives a conversation besides its owner and admins: `prompters`, anyone allowed to prompt
 * the project (the default); `author`, only the person who started it.
 */
export type ThreadPrompters = "author" | "prompters";

/** Where a project's conversations work: its checkout, one at a time, or a lane each. */
export type WorkspaceMode = "direct" | "branch";

/** Who may read a project's conversations besides its owner and admins. */
export type ProjectVisibility = "private" | "channel";

/** People a project's owner allows to prompt it (besides the owner and admins). */
/** A project shared with a channel (migration 0034): its members read it, and prompt it if `may_prompt`. */
export interface ProjectChannelSharesTable {
  project_id: string;
  channel_id: string;
  may_prompt: Generated<number>;
  added_by: string;
  created_at: number;
}

export interface ProjectPromptersTable {
  project_id: string;
  user_id: string;
  added_by: string;
  created_at: number;
}

/** A project's approval mode: `never` (today's behaviour) or `on-request` (escalations ask). */
export type ApprovalMode = "never" | "on-request";

export interface UsersTable {
  id: string;
  display_name: string | null;
  created_at: number;
}

/** A conversation's coarse state, mirrored from its queue items for listings. */
export type ConversationStatus = "idle" | "queued" | "running" | "completed" | "failed";

export interface ConversationsTable {
  id: string;
  project_id: string;
  title: string;
  user_id: string | null;
  status: Generated<ConversationStatus>;
  worker_pid: number | null;
  codex_thread_id: string | null;
  created_at: number;
  updated_at: number;
  /** The request's `model=`, `effort=` and `branch=` (migration 0022); null: the defaults. */
  model: Generated<string | null>;
  effort: Generated<string | null>;
  base_branch: Generated<string | null>;
  /** The standing instructions it was started with (a channel's, migration 0034); null: none. */
  instructions: Generated<string | null>;
  /** The opaque id of where it was started (a Slack channel's, migration 0041); null: nowhere. */
  place: Generated<string | null>;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  role: "user" | "assistant" | "system";
  content: string;
  metadata: Generated<string>;
  queue_id: string | null;
  created_at: number;
}

/** A queue item's lifecycle. */
/** `steered`: a follow-up sent into the running turn of its conversation; it never runs on its own. */
export type QueueStatus = "queued" | "running" | "done" | "failed" | "cancelled" | "steered";

/** Machine-readable failure reasons; state machines match these, never the text. */
export type FailureCode =
  | "interrupted"
  | "watchdog"
  | "codex_failed"
  | "cancelled"
  | "spawn_failed"
  | "thread_busy"
  | "setup_failed";

export interface PromptQueueTable {
  id: string;
  seq: number;
  conversation_id: string;
  content: string;
  status: Generated<QueueStatus>;
  error: string | null;
  error_code: FailureCode | null;
  requested_by: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  priority: Generated<number>;
  delegation_depth: Generated<number>;
  origin_kind: Generated<string>;
  slot_acquired_at: number | null;
  attempt: Generated<number>;
  worker_pid: number | null;
  worker_start_time: string | null;
  claimed_at: number | null;
  codex_pid: number | null;
  codex_start_time: string | null;
  codex_started_at: number | null;
  cancel_requested_at: number | null;
  last_activity: string | null;
  last_activity_at: number | null;
  usage: string | null;
  files_changed: string | null;
  /** On a running item: the app-server turn its worker can steer (null otherwise). */
  steer_turn_id: string | null;
  /** On a steered follow-up: the running item whose turn took it. */
  steered_into: string | null;
  /** The front end's request the prompt came from (unique): a replayed request queues it once. */
  request_key: string | null;
  /** The Slack context given with the prompt (JSON, engine/threadContext), quoted into it when it runs. */
  thread_context: string | null;
  /** The files shared with the prompt, staged by the front end (JSON, see engine/files); null: none. */
  attachments: string | null;
  /** The writer's display name when the agent is told who wrote the prompt (0033); null: not named. */
  writer_name: Generated<string | null>;
  /** How long the finished turn waited for a model it could not reach (ms); null before 0035. */
  unreachable_ms: number | null;
}

/** A `codexpi host` process: its name, who holds it, its heartbeat and its last readings. */
export interface HostsTable {
  name: string;
  owner: string | null;
  /** Its data directory on its own machine (its projects' Codex state is under it). */
  data_dir: string | null;
  started_at: number;
  heartbeat_at: number;
  load_percent: number | null;
  memory_percent: number | null;
  running: Generated<number>;
}

export interface LeasesTable {
  name: string;
  owner: string;
  expires_at: number;
  acquired_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  status: Generated<"pending" | "done" | "failed">;
  ordering_key: string | null;
  claimed_by: string | null;
  attempts: Generated<number>;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
}

export interface RuntimePoliciesTable {
  scope: string;
  max_concurrent: number | null;
  load_pause_percent: number | null;
  memory_pause_percent: number | null;
  background_start_hour: number | null;
  background_end_hour: number | null;
  updated_by: string | null;
  updated_at: number;
}

/** A question an agent asked a person (CODEXPI_DECISION). */
export type DecisionStatus = "OPEN" | "ANSWERED" | "CANCELLED";

export interface DecisionsTable {
  id: string;
  conversation_id: string;
  queue_id: string;
  user_id: string | null;
  title: string;
  question: string;
  options: string;
  allow_multiple: number;
  allow_custom: number;
  status: DecisionStatus;
  answer: string | null;
  answered_by: string | null;
  response_queue_id: string | null;
  created_at: number;
  answered_at: number | null;
}

/** A request of an agent to act outside its sandbox, and how a person answered it. */
export type ApprovalStatus =
  | "pending"
  | "approved"
  | "approved_session"
  | "denied"
  | "stopped"
  | "expired"
  | "abandoned";

export interface ApprovalsTable {
  id: string;
  conversation_id: string;
  queue_id: string;
  attempt: number;
  /** The person at the root of the conversation (who answers, with the project's owner and admins). */
  user_id: string | null;
  codex_thread_id: string;
  turn_id: string;
  item_id: string;
  /** Codex's approval id, else the item id: with thread and item, the request's key. */
  approval_id: string;
  kind: "command" | "file_change";
  command: string | null;
  cwd: string | null;
  reason: string | null;
  diff: string | null;
  /** JSON array of the paths a file change touches. */
  files: Generated<string>;
  status: Generated<ApprovalStatus>;
  answered_by: string | null;
  answered_at: number | null;
  created_at: number;
  expires_at: number;
}

/** A failed agent, and its self-repair. */
export type IncidentStatus = "OPEN" | "REPAIRING" | "RESOLVED" | "FAILED";

export interface IncidentsTable {
  id: string;
  conversation_id: string;
  queue_id: string;
  project_id: string;
  user_id: string | null;
  status: IncidentStatus;
  error: string;
  error_code: string | null;
  auto_repair: number;
  repair_project_id: string | null;
  repair_conversation_id: string | null;
  repair_queue_id: string | null;
  resolution: string | null;
  created_at: number;
  updated_at: number;
}

/** A specialist agent's life: it builds its workspace, then serves delegations. */
export type SpecialistStatus = "BUILDING" | "ACTIVE" | "FAILED";

export interface SpecialistAgentsTable {
  id: string;
  name: string;
  description: string;
  capabilities: string;
  summary: string | null;
  status: SpecialistStatus;
  error: string;
  owner_id: string | null;
  project_id: string;
  bootstrap_conversation_id: string | null;
  bootstrap_queue_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A task handed to a specialist by an agent (CODEXPI_SPECIALIST_CALL). */
export type DelegationStatus = "PENDING" | "RUNNING" | "WAITING_CHILD" | "COMPLETED" | "FAILED";

export interface SpecialistDelegationsTable {
  id: string;
  source_conversation_id: string;
  source_queue_id: string;
  parent_delegation_id: string | null;
  specialist_id: string | null;
  capability: string;
  task: string;
  context: string;
  depth: number;
  status: DelegationStatus;
  specialist_conversation_id: string | null;
  queue_id: string | null;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface NotificationPreferencesTable {
  user_id: string;
  task_completion: number;
  decisions: number;
  incidents: number;
  updated_at: number;
}

/** The whole schema as kysely sees it. */
export interface DB {
  projects: ProjectsTable;
  project_prompters: ProjectPromptersTable;
  project_channel_shares: ProjectChannelSharesTable;
  users: UsersTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  prompt_queue: PromptQueueTable;
  leases: LeasesTable;
  hosts: HostsTable;
  outbox: OutboxTable;
  runtime_policies: RuntimePoliciesTable;
  decisions: DecisionsTable;
  approvals: ApprovalsTable;
  incidents: IncidentsTable;
  specialist_agents: SpecialistAgentsTable;
  specialist_delegations: SpecialistDelegationsTable;
  notification_preferences: NotificationPreferencesTable;
}

export type Project = Selectable<ProjectsTable>;
export type Conversation = Selectable<ConversationsTable>;
export type QueueItem = Selectable<PromptQueueTable>;
