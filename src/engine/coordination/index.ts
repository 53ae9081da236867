import type { Kernel } from "../kernel.js";
import type { OutcomeReactor } from "../agents/outcome.js";
import type { Locale } from "../../i18n/index.js";
import { openDecisionReactor } from "./decisions.js";
import { openIncidentReactor, processIncidents } from "./incidents.js";
import { processDelegations, specialistCallReactor } from "./delegations.js";
import { processSpecialists } from "./specialists.js";
import { cancelDecisionsReactor } from "./decisionStore.js";

/** What coordination does when an agent's outcome is recorded (decisions, delegations, incidents). */
export function coordinationReactors(locale: Locale): OutcomeReactor[] {
  return [openDecisionReactor, cancelDecisionsReactor, specialistCallReactor(locale), openIncidentReactor];
}

/** Coordination's tick steps: specialists first (a delegation may need the one just ready). */
export function registerCoordinationTicks(engine: Kernel): void {
  engine.onTick("specialists", processSpecialists);
  engine.onTick("delegations", processDelegations);
  engine.onTick("incidents", processIncidents);
}
