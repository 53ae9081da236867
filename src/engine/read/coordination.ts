import type { Tx } from "../database.js";
import { getDecision, type DecisionView } from "../coordination/index.js";
import type { IncidentView } from "../coordination/index.js";

const SYSTEM = { userId: "system", isAdmin: true };

/** A decision as its card shows it. */
export interface DecisionCard {
  decision: DecisionView;
  projectName: string;
  answeredBy: string | undefined;
}

/** A decision's card (any decision: the notifier shows what the engine decided to show). */
export async function decisionCard(db: Tx, decisionId: string): Promise<DecisionCard> {
  const decision = await getDecision(db, SYSTEM, decisionId);
  const c = await db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .innerJoin("decisions as d", "d.conversation_id", "c.id")
    .select(["p.name", "d.answered_by"])
    .where("d.id", "=", decisionId)
    .executeTakeFirstOrThrow();
  return {
    decision,
    projectName: c.name,
    answeredBy: decision.status === "ANSWERED" ? (c.answered_by ?? undefined) : undefined,
  };
}

/** An incident with who it concerns and where its project posts. */
export interface IncidentNotice {
  incident: IncidentView;
  userId: string | null;
  /** The project's home channel (`--channel`), if any. */
  projectChannelId: string | null;
}

/** One incident by id (whatever its age); null when it does not exist. */
export async function incidentNotice(db: Tx, incidentId: string): Promise<IncidentNotice | null> {
  const r = await db
    .selectFrom("incidents as i")
    .innerJoin("projects as p", "p.id", "i.project_id")
    .leftJoin("projects as r", "r.id", "i.repair_project_id")
    .select([
      "i.id",
      "i.status",
      "i.auto_repair",
      "i.error",
      "i.error_code",
      "i.conversation_id",
      "i.project_id",
      "i.user_id",
      "i.resolution",
      "i.created_at",
      "i.repair_conversation_id",
      "p.name as project_name",
      "p.channel_id",
      "r.name as repair_project_name",
    ])
    .where("i.id", "=", incidentId)
    .executeTakeFirst();
  if (!r) return null;
  return {
    incident: {
      id: r.id,
      status: r.status,
      auto_repair: r.auto_repair === 1,
      error: r.error,
      error_code: r.error_code,
      conversation_id: r.conversation_id,
      project_id: r.project_id,
      project_name: r.project_name,
      repair_project_name: r.repair_project_name,
      repair_conversation_id: r.repair_conversation_id,
      resolution: r.resolution,
      created_at: r.created_at,
    },
    userId: r.user_id,
    projectChannelId: r.channel_id,
  };
}

/** Whether a failed queue item opened an incident (the incident then speaks for the failure). */
export async function itemOpenedIncident(db: Tx, queueId: string): Promise<boolean> {
  const row = await db
    .selectFrom("incidents")
    .select("id")
    .where("queue_id", "=", queueId)
    .executeTakeFirst();
  return row !== undefined;
}
