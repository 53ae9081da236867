import type { DelegationStatus } from "../schema.js";
import { actionsAt, type ActionTable, type TransitionTable } from "../stateMachine.js";

// A delegation's state machine, pure. It waits for a specialist, runs, may wait for a child (a
// delegation or a decision of its own) and resume, and ends completed or failed.

/** What can happen to a delegation. */
export type DelegationAction = "start" | "wait_child" | "resume" | "finish";

/** The transition table; a missing status fails to compile. */
export const DELEGATION_TRANSITIONS = {
  PENDING: ["RUNNING", "FAILED"],
  RUNNING: ["WAITING_CHILD", "COMPLETED", "FAILED"],
  WAITING_CHILD: ["RUNNING"],
  COMPLETED: [],
  FAILED: [],
} as const satisfies TransitionTable<DelegationStatus>;

/** The statuses each action needs. */
const DELEGATION_ACTIONS = {
  start: ["PENDING"],
  wait_child: ["RUNNING"],
  resume: ["WAITING_CHILD"],
  finish: ["RUNNING"],
} as const satisfies ActionTable<DelegationStatus, DelegationAction>;

/** The actions a delegation in `status` allows. */
export const delegationActions = (status: DelegationStatus): DelegationAction[] =>
  actionsAt(DELEGATION_ACTIONS, status);
