import type { ApprovalDecision } from "../codex/index.js";
import type { ApprovalStatus } from "../schema.js";
import { allows, type ActionTable, type TransitionTable } from "../stateMachine.js";

// An approval's state machine, pure. A request is asked once and closed once: by a person's
// answer (approve, approve for the session, deny, stop), by its deadline, or because the turn
// that asked it ended while it waited (the worker stopped or died: nobody waits for it any more).

export type { ApprovalStatus };

/** What a person can answer; each closes the request in its own status. */
export type ApprovalAnswer = "approve" | "approve_session" | "deny" | "stop";

/** What can be done with an approval. */
type ApprovalAction = "answer";

/** The transition table; a missing status fails to compile. */
export const APPROVAL_TRANSITIONS = {
  pending: ["approved", "approved_session", "denied", "stopped", "expired", "abandoned"],
  approved: [],
  approved_session: [],
  denied: [],
  stopped: [],
  expired: [],
  abandoned: [],
} as const satisfies TransitionTable<ApprovalStatus>;

const APPROVAL_ACTIONS = {
  answer: ["pending"],
} as const satisfies ActionTable<ApprovalStatus, ApprovalAction>;

/** Whether an approval in `status` still takes an answer (whether its card shows buttons). */
export const isAnswerable = (status: ApprovalStatus): boolean => allows(APPROVAL_ACTIONS, status, "answer");

/** The status each answer closes a request in. */
export const STATUS_OF_ANSWER = {
  approve: "approved",
  approve_session: "approved_session",
  deny: "denied",
  stop: "stopped",
} as const satisfies Record<ApprovalAnswer, ApprovalStatus>;

/** Every answer, in the order the card shows them. */
export const APPROVAL_ANSWERS = Object.keys(STATUS_OF_ANSWER) as ApprovalAnswer[];

/**
 * What Codex is told for a closed request: a person's approval runs the command (once, or for
 * the session), a denial tells the agent it was refused, and everything else (stop, expiry, a turn
 * gone) cancels it. Null while it still waits.
 */
export const DECISION_OF_STATUS = {
  pending: null,
  approved: "accept",
  approved_session: "acceptForSession",
  denied: "decline",
  stopped: "cancel",
  expired: "cancel",
  abandoned: "cancel",
} as const satisfies Record<ApprovalStatus, ApprovalDecision | null>;
