/** The kinds of engine failure; Slack and the CLI map each to a catalog message. */
export type EngineErrorCode = "not_found" | "conflict" | "invalid" | "forbidden" | "unavailable";

/** Why exactly it failed: each reason has a sentence in the catalogs (`reason.<reason>`). */
export type EngineErrorReason =
  | "project_name_invalid"
  | "project_path_invalid"
  | "project_holds_data"
  | "project_holds_install"
  | "project_overlaps"
  | "project_exists"
  | "role_taken"
  | "project_clash"
  | "project_not_found"
  | "project_read_only"
  | "admins_only"
  | "project_busy"
  | "project_running"
  | "host_not_found"
  | "workspace_mode_invalid"
  | "workspace_not_a_repository"
  | "lane_not_found"
  | "lane_busy"
  | "lane_ended"
  | "lane_merge_not_allowed"
  | "lane_publish_not_allowed"
  | "lane_no_base"
  | "lane_checkout_dirty"
  | "lane_checkout_moved"
  | "lane_unsealed"
  | "conversation_not_found"
  | "conversation_other_project"
  | "prompt_empty"
  | "thread_context_invalid"
  | "not_allowed_to_drive"
  | "conversation_reserved"
  | "decision_reserved"
  | "approval_reserved"
  | "policy_invalid"
  | "limit_invalid"
  | "decision_not_found"
  | "decision_answered"
  | "decision_cancelled"
  | "decision_option_unknown"
  | "decision_one_option"
  | "decision_no_custom"
  | "decision_empty_answer"
  | "approval_not_found"
  | "approval_answered"
  | "approval_expired"
  | "approval_abandoned"
  | "specialist_invalid"
  | "specialist_not_failed"
  | "specialist_not_found"
  | "specialist_shared_admins_only"
  | "preferences_invalid"
  | "incident_not_found"
  | "incident_not_retryable"
  | "orch_not_found"
  | "orch_invalid"
  | "orch_not_a_repository"
  | "orch_wrong_state"
  | "orch_stale_draft"
  | "orch_stale_revision"
  | "orch_feedback_empty"
  | "orch_worktree_missing"
  | "orch_merge_unconfirmed"
  | "orch_main_detached"
  | "orch_main_dirty"
  | "orch_main_moved"
  | "orch_merge_conflict"
  | "orch_git_failed"
  | "orch_setup_failed"
  | "run_active"
  | "run_not_found"
  | "run_not_blocked"
  | "run_plan_invalid"
  | "run_target_unknown"
  | "run_rebase_refused"
  | "run_no_master"
  | "run_projects_not_found"
  // Forges: push and pull requests (issue 18).
  | "forge_kind_invalid"
  | "forge_url_invalid"
  | "forge_repo_invalid"
  | "forge_remote_invalid"
  | "forge_branch_invalid"
  | "forge_token_invalid"
  | "forge_token_missing"
  | "forge_not_configured"
  | "forge_remote_missing"
  | "forge_remote_unsupported"
  | "forge_remote_insecure"
  | "forge_push_failed"
  | "forge_token_refused"
  | "forge_forbidden"
  | "forge_repo_not_found"
  | "forge_request_refused"
  | "forge_unreachable"
  | "forge_webhook_secret_invalid"
  | "forge_not_running"
  // Per-request options (issue 19): `model=`, `effort=`, `branch=`.
  | "request_option_empty"
  | "request_option_repeated"
  | "request_effort_invalid"
  | "request_model_none"
  | "request_model_not_allowed"
  | "request_branch_direct"
  | "request_branch_missing"
  | "project_models_invalid"
  // Usage and budgets (issue 21).
  | "over_budget"
  | "budget_invalid"
  | "budget_not_found"
  | "usage_days_invalid"
  // Schedules and the audit trail (issue 21).
  | "schedule_not_found"
  | "schedule_not_yours"
  | "schedule_cron_invalid"
  | "schedule_cron_never"
  | "schedule_tz_invalid"
  | "schedule_channel_not_member"
  | "audit_since_invalid"
  // A project's egress policy (issue 31, item 3).
  | "network_host_invalid"
  | "network_hosts_missing"
  | "network_port_invalid"
  | "network_mode_invalid"
  | "network_private_admins_only"
  | "network_role_admins_only"
  // Setup (issue 31, item 4).
  | "setup_secret_key_invalid"
  | "setup_secret_value_invalid"
  | "setup_command_invalid"
  | "setup_not_configured"
  | "setup_direct_only";

/**
 * The one error type the engine throws for expected failures. The sentence a person reads comes
 * from the catalog (`reason.<reason>` filled with `params`); `message` is for logs.
 */
export class EngineError extends Error {
  override name = "EngineError";
  constructor(
    readonly code: EngineErrorCode,
    readonly reason: EngineErrorReason,
    readonly params: Record<string, string | number> = {},
    options?: { cause?: unknown },
  ) {
    super(`${reason}${Object.keys(params).length ? ` ${JSON.stringify(params)}` : ""}`, options);
  }
}

export const isEngineError = (e: unknown): e is EngineError => e instanceof EngineError;
