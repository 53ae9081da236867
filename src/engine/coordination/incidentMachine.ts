import type { IncidentStatus } from "../schema.js";
import { actionsAt, allows, type ActionTable, type TransitionTable } from "../stateMachine.js";

// An incident's state machine, pure. It opens on a failure, goes to self-repair when a self
// project exists, and closes resolved or failed; a person's retry resolves it at any open point.

/** What can be done with an incident. */
export type IncidentAction = "repair" | "retry" | "offer_retry" | "recover";

/** The transition table; a missing status fails to compile. */
export const INCIDENT_TRANSITIONS = {
  OPEN: ["REPAIRING", "RESOLVED"],
  REPAIRING: ["RESOLVED", "FAILED"],
  RESOLVED: [],
  FAILED: ["RESOLVED"],
} as const satisfies TransitionTable<IncidentStatus>;

/**
 * The statuses each action needs. A person may retry an incident that no repair holds; the Retry
 * button is offered only once the repair failed (before, the self-repair is about to act on it).
 */
export const INCIDENT_ACTIONS = {
  repair: ["OPEN"],
  retry: ["OPEN", "FAILED"],
  offer_retry: ["FAILED"],
  // Resolves itself when a later turn shows its cause gone (the model answers again); a repair
  // in progress keeps it until it reports.
  recover: ["OPEN", "FAILED"],
} as const satisfies ActionTable<IncidentStatus, IncidentAction>;

/** Whether an incident in `status` allows `action` (e.g. whether its card shows Retry). */
export const canIncident = (status: IncidentStatus, action: IncidentAction): boolean =>
  allows(INCIDENT_ACTIONS, status, action);

/** The actions an incident in `status` allows. */
export const incidentActions = (status: IncidentStatus): IncidentAction[] =>
  actionsAt(INCIDENT_ACTIONS, status);
