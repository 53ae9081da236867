import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type {} from "../orchestrations/schema.js"; // the orchestrations table
import type {} from "../runs/schema.js"; // the runs tables
import { SPECIALIST_GROUP } from "../projects/index.js";
import type { AgentPurpose } from "../isolation/index.js";
import { isForkLane, laneOf } from "../lanes/index.js";

/** The project fields the purpose depends on. */
export interface PurposeProject {
  role: string;
  execution_group: string | null;
}

/** What a conversation is for, read from what refers to it (not from any queue item). */
export async function purposeOf(
  db: Kysely<DB>,
  conversationId: string,
  project: PurposeProject,
): Promise<AgentPurpose> {
  if (project.role === "self") return "self_repair";
  if (project.execution_group === SPECIALIST_GROUP) return "specialist";
  const orchestration = await db
    .selectFrom("orchestrations")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .executeTakeFirst();
  if (orchestration) return "orchestration";
  if (project.role === "master" || project.execution_group === "__global_agent__") return "run";
  const step = await db
    .selectFrom("remediation_step_runs")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .limit(1)
    .executeTakeFirst();
  return step ? "run" : "conversation";
}

/**
 * Whether the admin's full-access grant applies to a conversation: never to one whose lane holds
 * a fork's pull request (someone else's code, and a comment that asked for it): that agent keeps
 * Codex's sandbox and its project's allowlist, whatever the project's flag (issue 33, item 2).
 */
export async function fullAccessGranted(
  db: Kysely<DB>,
  conversationId: string,
  project: { full_access: number },
): Promise<boolean> {
  if (project.full_access !== 1) return false;
  const lane = await laneOf(db, conversationId);
  return !(lane && isForkLane(lane));
}
