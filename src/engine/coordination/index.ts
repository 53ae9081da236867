import type { Kernel } from "../kernel.js";
import type { OutcomeReactor, StopReactor } from "../outcomeHook.js";
import type { Locale } from "../../i18n/index.js";
import { openDecisionReactor } from "./decisions.js";
import { openIncidentReactor, processIncidents } from "./incidents.js";
import { recoverIncidentsReactor } from "./incidentRecovery.js";
import { processDelegations, specialistCallReactor } from "./delegations.js";
import { processSpecialists } from "./specialists.js";
import { cancelDecisionsReactor, cancelOpenDecisions } from "./decisionStore.js";

/** What coordination does when an agent's outcome is recorded (decisions, delegations, incidents). */
export function coordinationReactors(locale: Locale): OutcomeReactor[] {
  return [
    openDecisionReactor,
    cancelDecisionsReactor,
    specialistCallReactor(locale),
    openIncidentReactor,
    recoverIncidentsReactor(locale),
  ];
}

/** What coordination closes when a conversation is stopped: the decisions it left open. */
export const cancelDecisionsOnStop: StopReactor = async (trx, now, conversationId) =>
  (await cancelOpenDecisions(trx, now, conversationId)).length;

/** Coordination's tick steps: specialists first (a delegation may need the one just ready). */
export function registerCoordinationTicks(engine: Kernel): void {
  engine.onTick("specialists", processSpecialists);
  engine.onTick("delegations", processDelegations);
  engine.onTick("incidents", processIncidents);
}

export { canDecision } from "./decisionMachine.js";
export {
  type DecisionView,
  answerDecisionUseCase,
  assertAnswerable,
  decisionOfItem,
  getDecision,
  listDecisions,
  rootUserOf,
} from "./decisions.js";
export { canIncident } from "./incidentMachine.js";
export { type IncidentView, listIncidents, retryIncident } from "./incidents.js";
export { type Overview, overview } from "./overview.js";
export { type NotificationPreferences, getPreferences, setPreferences } from "./preferences.js";
export { canSpecialist } from "./specialistMachine.js";
export { type SpecialistView, createSpecialist, listSpecialists, rebuildSpecialist } from "./specialists.js";
