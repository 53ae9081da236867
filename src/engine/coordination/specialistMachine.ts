import type { SpecialistStatus } from "../schema.js";
import { actionsAt, allows, type ActionTable, type TransitionTable } from "../stateMachine.js";

// A specialist's state machine, pure: it builds its workspace, then serves delegations; a failed
// build can be started again.

/** What can be done with a specialist. */
export type SpecialistAction = "rebuild" | "serve";

/** The transition table; a missing status fails to compile. */
export const SPECIALIST_TRANSITIONS = {
  BUILDING: ["ACTIVE", "FAILED"],
  ACTIVE: [],
  FAILED: ["BUILDING"],
} as const satisfies TransitionTable<SpecialistStatus>;

/** The statuses each action needs. */
export const SPECIALIST_ACTIONS = {
  rebuild: ["FAILED"],
  serve: ["ACTIVE"],
} as const satisfies ActionTable<SpecialistStatus, SpecialistAction>;

/** Whether a specialist in `status` allows `action` (e.g. whether its entry shows Rebuild). */
export const canSpecialist = (status: SpecialistStatus, action: SpecialistAction): boolean =>
  allows(SPECIALIST_ACTIONS, status, action);

/** The actions a specialist in `status` allows. */
export const specialistActions = (status: SpecialistStatus): SpecialistAction[] =>
  actionsAt(SPECIALIST_ACTIONS, status);
