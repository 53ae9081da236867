import {
  actionsAt,
  allows,
  terminalStatuses,
  type ActionTable,
  type TransitionTable,
} from "../stateMachine.js";

// The orchestration state machine, pure, in the shared tables (stateMachine.ts): where each status
// may go, which statuses allow each action, and where each action leads. Services read the row,
// ask `nextStatus`, then the store writes the move guarded on the from-states `guardFor` gives.

/** Where an orchestration stands. */
export type OrchestrationStatus =
  | "DRAFT_REVIEW"
  | "PREPARING"
  | "AGENT_RUNNING"
  | "AGENT_FAILED"
  | "AWAITING_VERIFICATION"
  | "VERIFYING"
  | "VERIFICATION_FAILED"
  | "USER_REVIEW"
  | "AWAITING_MERGE_CONFIRMATION"
  | "MERGING"
  | "MERGED"
  | "CANCELLING"
  | "CANCELLED";

/** What can happen to an orchestration (people's actions and the outcomes of git, tests, agents). */
export type OrchestrationAction =
  | "reject_draft"
  | "approve_draft"
  | "prepared"
  | "prepare_failed"
  | "agent_finished"
  | "agent_failed"
  | "verify"
  | "verified"
  | "verification_failed"
  | "verification_interrupted"
  | "corrections"
  | "approve_revision"
  | "approve_and_merge"
  | "confirm_merge"
  | "decline_merge"
  | "merged"
  | "merge_failed"
  | "cancel"
  | "cancelled"
  | "resume";

/**
 * The transition table; a missing status fails to compile. A claimed step (PREPARING, MERGING,
 * CANCELLING) may re-enter itself: the tick takes over a step whose claim expired.
 */
export const ORCHESTRATION_TRANSITIONS = {
  DRAFT_REVIEW: ["DRAFT_REVIEW", "PREPARING", "CANCELLING"],
  PREPARING: ["AGENT_RUNNING", "DRAFT_REVIEW", "PREPARING"],
  AGENT_RUNNING: ["AWAITING_VERIFICATION", "AGENT_FAILED", "CANCELLING"],
  AGENT_FAILED: ["AGENT_RUNNING", "CANCELLING"],
  AWAITING_VERIFICATION: ["VERIFYING", "AGENT_RUNNING", "CANCELLING"],
  VERIFYING: ["USER_REVIEW", "VERIFICATION_FAILED", "AWAITING_VERIFICATION"],
  VERIFICATION_FAILED: ["VERIFYING", "AGENT_RUNNING", "CANCELLING"],
  USER_REVIEW: ["AWAITING_MERGE_CONFIRMATION", "MERGING", "AGENT_RUNNING", "CANCELLING"],
  AWAITING_MERGE_CONFIRMATION: ["MERGING", "USER_REVIEW", "AGENT_RUNNING", "CANCELLING"],
  MERGING: ["MERGED", "AWAITING_MERGE_CONFIRMATION", "MERGING"],
  MERGED: [],
  CANCELLING: ["CANCELLED", "CANCELLING"],
  CANCELLED: [],
} as const satisfies TransitionTable<OrchestrationStatus>;

// Corrections and cancel are open wherever no git or test step holds the orchestration: a person
// can always change their mind, but never under a running clone/merge operation.
const CORRECTABLE = [
  "AGENT_FAILED",
  "AWAITING_VERIFICATION",
  "VERIFICATION_FAILED",
  "USER_REVIEW",
  "AWAITING_MERGE_CONFIRMATION",
] as const satisfies readonly OrchestrationStatus[];

/** The statuses each action needs; a missing action fails to compile. */
export const ORCHESTRATION_ACTIONS = {
  reject_draft: ["DRAFT_REVIEW"],
  approve_draft: ["DRAFT_REVIEW"],
  prepared: ["PREPARING"],
  prepare_failed: ["PREPARING"],
  agent_finished: ["AGENT_RUNNING"],
  agent_failed: ["AGENT_RUNNING"],
  verify: ["AWAITING_VERIFICATION", "VERIFICATION_FAILED"],
  verified: ["VERIFYING"],
  verification_failed: ["VERIFYING"],
  verification_interrupted: ["VERIFYING"],
  corrections: [...CORRECTABLE],
  approve_revision: ["USER_REVIEW"],
  approve_and_merge: ["USER_REVIEW"],
  confirm_merge: ["AWAITING_MERGE_CONFIRMATION"],
  decline_merge: ["AWAITING_MERGE_CONFIRMATION"],
  merged: ["MERGING"],
  merge_failed: ["MERGING"],
  cancel: ["DRAFT_REVIEW", "AGENT_RUNNING", ...CORRECTABLE],
  cancelled: ["CANCELLING"],
  resume: ["PREPARING", "MERGING", "CANCELLING"],
} as const satisfies ActionTable<OrchestrationStatus, OrchestrationAction>;

/** An action's target that is the status it was taken from (a step taken over after its claim expired). */
const SAME = "SAME";

/** Where each action leads; every (from, to) it makes is in the transition table (see `nextStatus`). */
export const ACTION_TARGETS = {
  reject_draft: "DRAFT_REVIEW",
  approve_draft: "PREPARING",
  prepared: "AGENT_RUNNING",
  prepare_failed: "DRAFT_REVIEW",
  agent_finished: "AWAITING_VERIFICATION",
  agent_failed: "AGENT_FAILED",
  verify: "VERIFYING",
  verified: "USER_REVIEW",
  verification_failed: "VERIFICATION_FAILED",
  verification_interrupted: "AWAITING_VERIFICATION",
  corrections: "AGENT_RUNNING",
  approve_revision: "AWAITING_MERGE_CONFIRMATION",
  approve_and_merge: "MERGING",
  confirm_merge: "MERGING",
  decline_merge: "USER_REVIEW",
  merged: "MERGED",
  merge_failed: "AWAITING_MERGE_CONFIRMATION",
  cancel: "CANCELLING",
  cancelled: "CANCELLED",
  resume: SAME,
} as const satisfies Record<OrchestrationAction, OrchestrationStatus | typeof SAME>;

/** Every status, in the table's order. */
export const STATUSES = Object.keys(ORCHESTRATION_TRANSITIONS) as OrchestrationStatus[];

/** Statuses in which one process holds the orchestration for a git or test step (with a claim). */
export const CLAIMED_STATUSES = [
  "PREPARING",
  "VERIFYING",
  "MERGING",
  "CANCELLING",
] as const satisfies readonly OrchestrationStatus[];

/** Whether an orchestration in `status` allows `action`. */
export const canOrchestration = (status: OrchestrationStatus, action: OrchestrationAction): boolean =>
  allows(ORCHESTRATION_ACTIONS, status, action);

/** The actions an orchestration in `status` allows, in the table's order. */
export const orchestrationActions = (status: OrchestrationStatus): OrchestrationAction[] =>
  actionsAt(ORCHESTRATION_ACTIONS, status);

/** Where `action` leads from `status`, or null when it is not allowed there. */
export function nextStatus(
  status: OrchestrationStatus,
  action: OrchestrationAction,
): OrchestrationStatus | null {
  if (!canOrchestration(status, action)) return null;
  const target = ACTION_TARGETS[action];
  return target === SAME ? status : target;
}

/** Statuses from which `action` is allowed, in the transition table's order. */
export function statusesAllowing(action: OrchestrationAction): OrchestrationStatus[] {
  return STATUSES.filter((s) => canOrchestration(s, action));
}

const TERMINAL: readonly OrchestrationStatus[] = terminalStatuses(ORCHESTRATION_TRANSITIONS);

/** Terminal statuses: nothing moves them any more. */
export const isTerminal = (status: OrchestrationStatus): boolean => TERMINAL.includes(status);
