import type { DecisionStatus } from "../schema.js";
import { actionsAt, allows, type ActionTable, type TransitionTable } from "../stateMachine.js";

// A decision's state machine, pure. A decision is asked once and closed once: answered by its
// person, or cancelled because the conversation that asked it was stopped or failed.

export type { DecisionStatus };

/** What can be done with a decision. */
export type DecisionAction = "answer" | "cancel";

/** The transition table; a missing status fails to compile. */
export const DECISION_TRANSITIONS = {
  OPEN: ["ANSWERED", "CANCELLED"],
  ANSWERED: [],
  CANCELLED: [],
} as const satisfies TransitionTable<DecisionStatus>;

/** The statuses each action needs. */
const DECISION_ACTIONS = {
  answer: ["OPEN"],
  cancel: ["OPEN"],
} as const satisfies ActionTable<DecisionStatus, DecisionAction>;

/** Whether a decision in `status` allows `action` (e.g. whether its card shows buttons). */
export const canDecision = (status: DecisionStatus, action: DecisionAction): boolean =>
  allows(DECISION_ACTIONS, status, action);

/** The actions a decision in `status` allows. */
export const decisionActions = (status: DecisionStatus): DecisionAction[] =>
  actionsAt(DECISION_ACTIONS, status);
