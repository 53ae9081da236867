import type { ColumnDataType, Kysely } from "kysely";

// Frozen once landed. Migration 0002 was edited after it landed (`codex_started_at` was added to
// its list), so a database migrated in between lacks that column and the worker's write fails.
// Migrations are frozen from now on (test/engine/migrations.test.ts); this one repairs what an
// edited migration may have left out: every column of the schema as of 0007 (primary keys
// aside: a table that exists has them), added when a table lacks it. Idempotent: it reads the
// table's columns (PRAGMA table_info on SQLite) first, so it also runs again after a crash.
// A missing NOT NULL column without a default gets a neutral one (0 or ''): an existing row
// needs a value, and every insert of the current code sets it anyway. Constraints a column gets
// only at its table's creation (unique, references) are not this repair's: those tables exist
// whole from their own migrations, never edited.

type Spec = readonly [name: string, type: ColumnDataType, notNull: boolean, defaultValue?: string | number];

/** Every non-key column of every table, as migrations 0001…0007 declare them. */
const SCHEMA: Record<string, readonly Spec[]> = {
  conversations: [
    ["project_id", "text", true], ["title", "text", true], ["user_id", "text", false],
    ["status", "text", true, "idle"], ["worker_pid", "integer", false], ["codex_thread_id", "text", false],
    ["slack_channel_id", "text", false], ["slack_thread_ts", "text", false], ["created_at", "bigint", true],
    ["updated_at", "bigint", true], ["slack_status_ts", "text", false], ["slack_origin", "text", false],
  ],
  decisions: [
    ["conversation_id", "text", true], ["queue_id", "text", true], ["user_id", "text", false],
    ["title", "text", true], ["question", "text", true], ["options", "text", true],
    ["allow_multiple", "integer", true, 0], ["allow_custom", "integer", true, 0],
    ["status", "text", true, "OPEN"], ["answer", "text", false], ["answered_by", "text", false],
    ["response_queue_id", "text", false], ["created_at", "bigint", true], ["answered_at", "bigint", false],
  ],
  incidents: [
    ["conversation_id", "text", true], ["queue_id", "text", true], ["project_id", "text", true],
    ["user_id", "text", false], ["status", "text", true, "OPEN"], ["error", "text", true],
    ["error_code", "text", false], ["auto_repair", "integer", true, 1], ["repair_project_id", "text", false],
    ["repair_conversation_id", "text", false], ["repair_queue_id", "text", false],
    ["resolution", "text", false], ["created_at", "bigint", true], ["updated_at", "bigint", true],
  ],
  leases: [["owner", "text", true], ["expires_at", "bigint", true], ["acquired_at", "bigint", true]],
  messages: [
    ["conversation_id", "text", true], ["role", "text", true], ["content", "text", true],
    ["metadata", "text", true, "{}"], ["queue_id", "text", false], ["created_at", "bigint", true],
  ],
  notification_preferences: [
    ["task_completion", "integer", true, 1], ["decisions", "integer", true, 1],
    ["incidents", "integer", true, 1], ["updated_at", "bigint", true],
  ],
  orchestration_events: [
    ["orchestration_id", "text", true], ["kind", "text", true], ["queue_id", "text", false],
    ["detail", "text", true, "{}"], ["created_at", "bigint", true],
  ],
  orchestrations: [
    ["project_id", "text", true], ["owner_id", "text", false], ["name", "text", true],
    ["request", "text", true], ["acceptance_criteria", "text", true, "[]"], ["tests", "text", true, "[]"],
    ["engine", "text", true, "codex"], ["status", "text", true, "DRAFT_REVIEW"], ["draft", "text", true],
    ["draft_version", "integer", true, 1], ["draft_hash", "text", true],
    ["draft_feedback", "text", true, "[]"], ["base_branch", "text", false], ["base_revision", "text", false],
    ["branch", "text", false], ["worktree_path", "text", false], ["conversation_id", "text", false],
    ["queue_id", "text", false], ["verified_revision", "text", false], ["approved_revision", "text", false],
    ["merged_revision", "text", false], ["verification", "text", false], ["last_error", "text", false],
    ["claim_token", "text", false], ["claim_expires_at", "bigint", false], ["created_at", "bigint", true],
    ["updated_at", "bigint", true], ["slack_channel_id", "text", false], ["slack_thread_ts", "text", false],
  ],
  outbox: [
    ["kind", "text", true], ["payload", "text", true], ["status", "text", true, "pending"],
    ["attempts", "integer", true, 0], ["next_attempt_at", "bigint", true], ["last_error", "text", false],
    ["created_at", "bigint", true], ["done_at", "bigint", false], ["ordering_key", "text", false],
    ["claimed_by", "text", false],
  ],
  projects: [
    ["name", "text", true], ["path", "text", true], ["owner_id", "text", false],
    ["full_access", "integer", true, 0], ["execution_group", "text", false],
    ["merge_confirmation_required", "integer", true, 0], ["slack_channel_id", "text", false],
    ["role", "text", true, "project"], ["created_at", "bigint", true],
  ],
  prompt_queue: [
    ["seq", "bigint", true], ["conversation_id", "text", true], ["content", "text", true],
    ["status", "text", true, "queued"], ["error", "text", false], ["requested_by", "text", false],
    ["created_at", "bigint", true], ["started_at", "bigint", false], ["finished_at", "bigint", false],
    ["priority", "integer", true, 60], ["delegation_depth", "integer", true, 0],
    ["origin_kind", "text", true, "user"], ["slot_acquired_at", "bigint", false],
    ["error_code", "text", false], ["attempt", "integer", true, 0], ["worker_pid", "integer", false],
    ["worker_start_time", "text", false], ["claimed_at", "bigint", false], ["codex_pid", "integer", false],
    ["codex_start_time", "text", false], ["codex_started_at", "bigint", false],
    ["cancel_requested_at", "bigint", false], ["last_activity", "text", false],
    ["last_activity_at", "bigint", false], ["usage", "text", false], ["files_changed", "text", false],
  ],
  remediation_run_events: [
    ["run_id", "text", true], ["step_id", "text", false], ["kind", "text", true],
    ["details", "text", true, "{}"], ["created_at", "bigint", true],
  ],
  remediation_runs: [
    ["owner_id", "text", true], ["status", "text", true, "RUNNING"], ["stage", "text", true, "PLAN_REVIEW"],
    ["plan", "text", true], ["master_project_id", "text", true], ["master_conversation_id", "text", false],
    ["current_step_id", "text", false], ["active_queue_id", "text", false], ["self_repair_id", "text", false],
    ["correction_round", "integer", true, 0], ["review_restarts", "integer", true, 0],
    ["blocked_stage", "text", false], ["block_code", "text", false], ["error", "text", false],
    ["final_report", "text", false], ["created_at", "bigint", true], ["updated_at", "bigint", true],
    ["finished_at", "bigint", false], ["slack_channel_id", "text", false], ["slack_thread_ts", "text", false],
  ],
  remediation_self_repairs: [
    ["run_id", "text", true], ["step_id", "text", false], ["status", "text", true, "RUNNING"],
    ["blocked_stage", "text", true], ["block_code", "text", true], ["error", "text", true, ""],
    ["project_id", "text", true], ["conversation_id", "text", true], ["queue_id", "text", true],
    ["feedback", "text", false], ["prompt_addendum", "text", false], ["created_at", "bigint", true],
    ["updated_at", "bigint", true], ["finished_at", "bigint", false],
  ],
  remediation_step_runs: [
    ["run_id", "text", true], ["step_id", "text", true], ["position", "integer", true],
    ["phase", "integer", true, 1], ["phase_label", "text", true, ""], ["title", "text", true],
    ["summary", "text", true, ""], ["risk", "text", true], ["target", "text", true],
    ["aliases", "text", true, "[]"], ["project_id", "text", true], ["prompt", "text", true],
    ["status", "text", true, "PENDING"], ["conversation_id", "text", false], ["queue_id", "text", false],
    ["attempts", "integer", true, 0], ["feedback", "text", false], ["created_at", "bigint", true],
    ["updated_at", "bigint", true], ["finished_at", "bigint", false],
  ],
  runtime_policies: [
    ["max_concurrent", "integer", false], ["load_pause_percent", "integer", false],
    ["memory_pause_percent", "integer", false], ["background_start_hour", "integer", false],
    ["background_end_hour", "integer", false], ["updated_by", "text", false], ["updated_at", "bigint", true],
  ],
  slack_events: [["received_at", "bigint", true]],
  slack_posts: [
    ["outbox_id", "integer", true], ["conversation_id", "text", false], ["purpose", "text", true],
    ["channel_id", "text", true], ["thread_ts", "text", false], ["ts", "text", false],
    ["status", "text", true], ["created_at", "bigint", true],
  ],
  specialist_agents: [
    ["name", "text", true], ["description", "text", true], ["capabilities", "text", true],
    ["summary", "text", false], ["status", "text", true, "BUILDING"], ["error", "text", true, ""],
    ["owner_id", "text", false], ["project_id", "text", true], ["bootstrap_conversation_id", "text", false],
    ["bootstrap_queue_id", "text", false], ["created_at", "bigint", true], ["updated_at", "bigint", true],
  ],
  specialist_delegations: [
    ["source_conversation_id", "text", true], ["source_queue_id", "text", true],
    ["parent_delegation_id", "text", false], ["specialist_id", "text", false], ["capability", "text", true],
    ["task", "text", true], ["context", "text", true, ""], ["depth", "integer", true, 1],
    ["status", "text", true, "PENDING"], ["specialist_conversation_id", "text", false],
    ["queue_id", "text", false], ["result", "text", false], ["error", "text", false],
    ["created_at", "bigint", true], ["updated_at", "bigint", true],
  ],
  users: [["display_name", "text", false], ["created_at", "bigint", true]],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  for (const [table, columns] of Object.entries(SCHEMA)) {
    const found = tables.find((t) => t.name === table);
    if (!found) continue; // not this migration's to create: its own migration does
    const existing = new Set(found.columns.map((c) => c.name));
    for (const [name, type, notNull, defaultValue] of columns) {
      if (existing.has(name)) continue;
      const value = defaultValue ?? (notNull ? (type === "text" ? "" : 0) : undefined);
      await db.schema
        .alterTable(table)
        .addColumn(name, type, (c) => {
          const withDefault = value === undefined ? c : c.defaultTo(value);
          return notNull ? withDefault.notNull() : withDefault;
        })
        .execute();
    }
  }
}

export async function down(): Promise<void> {
  // Nothing to undo: the columns belong to the migrations that declare them.
}
