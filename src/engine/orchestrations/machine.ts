// The orchestration state machine, pure: which action moves which status where. Services read
// the row, ask `nextStatus`, then write the move guarded on the status they read.

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

type Moves = Partial<Record<OrchestrationAction, OrchestrationStatus>>;

// Corrections and cancel are open wherever no git or test step holds the orchestration: a person
// can always change their mind, but never under a running clone/merge operation.
const CORRECTABLE: Moves = { corrections: "AGENT_RUNNING", cancel: "CANCELLING" };

/** The transition table; `satisfies` makes a status without its row a compile error. */
const TRANSITIONS = {
  DRAFT_REVIEW: { reject_draft: "DRAFT_REVIEW", approve_draft: "PREPARING", cancel: "CANCELLING" },
  PREPARING: { prepared: "AGENT_RUNNING", prepare_failed: "DRAFT_REVIEW", resume: "PREPARING" },
  AGENT_RUNNING: {
    agent_finished: "AWAITING_VERIFICATION",
    agent_failed: "AGENT_FAILED",
    cancel: "CANCELLING",
  },
  AGENT_FAILED: { ...CORRECTABLE },
  AWAITING_VERIFICATION: { verify: "VERIFYING", ...CORRECTABLE },
  VERIFYING: {
    verified: "USER_REVIEW",
    verification_failed: "VERIFICATION_FAILED",
    verification_interrupted: "AWAITING_VERIFICATION",
  },
  VERIFICATION_FAILED: { verify: "VERIFYING", ...CORRECTABLE },
  USER_REVIEW: {
    approve_revision: "AWAITING_MERGE_CONFIRMATION",
    approve_and_merge: "MERGING",
    ...CORRECTABLE,
  },
  AWAITING_MERGE_CONFIRMATION: { confirm_merge: "MERGING", decline_merge: "USER_REVIEW", ...CORRECTABLE },
  MERGING: { merged: "MERGED", merge_failed: "AWAITING_MERGE_CONFIRMATION", resume: "MERGING" },
  MERGED: {},
  CANCELLING: { cancelled: "CANCELLED", resume: "CANCELLING" },
  CANCELLED: {},
} as const satisfies Record<OrchestrationStatus, Moves>;

/** Every status, in the table's order. */
export const STATUSES = Object.keys(TRANSITIONS) as OrchestrationStatus[];

/** Statuses in which one process holds the orchestration for a git or test step (with a claim). */
export const CLAIMED_STATUSES = [
  "PREPARING",
  "VERIFYING",
  "MERGING",
  "CANCELLING",
] as const satisfies readonly OrchestrationStatus[];

/** Where `action` leads from `status`, or null when it is not allowed there. */
export function nextStatus(
  status: OrchestrationStatus,
  action: OrchestrationAction,
): OrchestrationStatus | null {
  return (TRANSITIONS[status] as Moves)[action] ?? null;
}

/** Statuses from which `action` is allowed. */
export function statusesAllowing(action: OrchestrationAction): OrchestrationStatus[] {
  return STATUSES.filter((s) => nextStatus(s, action) !== null);
}

/** Terminal statuses: nothing moves them any more. */
export const isTerminal = (status: OrchestrationStatus): boolean =>
  Object.keys(TRANSITIONS[status]).length === 0;
