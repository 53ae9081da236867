import { t, type Locale } from "../../i18n/index.js";
import { isModelFailure } from "../../i18n/failures.js";
import { recordAgentAudit } from "../audit/index.js";
import { emit } from "../outbox.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import { moveIncident } from "./coordinationStore.js";
import { INCIDENT_ACTIONS } from "./incidentMachine.js";

/**
 * Outcome hook: a turn that completes in a project resolves that project's open incidents whose
 * cause was the model (unreachable, or failing while Codex retried): the completed turn reached
 * it, so the cause is gone. Other causes (a Codex error, a crash, a turn too long) say nothing
 * about the next turn and stay open. Each is moved once (guarded), edited where it was posted
 * (`incident.updated`) and audited as the succeeding turn's doing.
 */
export function recoverIncidentsReactor(locale: Locale): OutcomeReactor {
  return async (trx, o, clock) => {
    if (o.status !== "done") return;
    const c = await trx
      .selectFrom("conversations as c")
      .innerJoin("projects as p", "p.id", "c.project_id")
      .select(["c.project_id", "p.name"])
      .where("c.id", "=", o.conversationId)
      .executeTakeFirst();
    if (!c) return;
    const now = clock.now();
    const open = await trx
      .selectFrom("incidents")
      .select(["id", "error"])
      .where("status", "in", INCIDENT_ACTIONS.recover)
      .where("project_id", "=", c.project_id)
      .where("created_at", "<=", now)
      .execute();
    for (const incident of open.filter((i) => isModelFailure(i.error))) {
      const resolution = t(locale, "incident.recovered", { project: c.name });
      const moved = await moveIncident(
        trx,
        incident.id,
        "RESOLVED",
        { resolution, updated_at: now },
        INCIDENT_ACTIONS.recover,
      );
      if (!moved) continue;
      await emit(trx, now, { kind: "incident.updated", incidentId: incident.id, status: "RESOLVED" });
      await recordAgentAudit(trx, now, o.conversationId, {
        action: "incident.recover",
        target: `incident:${incident.id}`,
        detail: resolution,
      });
    }
  };
}
