import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import { canSee, type Actor } from "../projects/index.js";
import { runtimePolicies } from "../projects/index.js";
import { listDecisions, type DecisionView } from "./decisions.js";
import { listIncidents, type IncidentView } from "./incidents.js";
import { listSpecialists, type SpecialistView } from "./specialists.js";

/** The coordination overview: exactly these four parts (S-CO-10). */
export interface Overview {
  decisions: DecisionView[];
  incidents: IncidentView[];
  runtime_policies: Awaited<ReturnType<typeof runtimePolicies>>;
  specialists: SpecialistView[];
}

/** Everything that waits on the actor or concerns them, scoped to what they may see. */
export async function overview(db: Kysely<DB>, actor: Actor): Promise<Overview> {
  const policies = await runtimePolicies(db);
  return {
    decisions: await listDecisions(db, actor),
    incidents: await listIncidents(db, actor),
    runtime_policies: { ...policies, projects: policies.projects.filter((p) => canSee(actor, p)) },
    specialists: await listSpecialists(db, actor),
  };
}
