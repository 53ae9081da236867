import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type {} from "../orchestrations/schema.js"; // the orchestrations table
import type {} from "../runs/schema.js"; // the runs tables
import { SPECIALIST_GROUP } from "../projects/index.js";
import type { AgentPurpose } from "../isolation/index.js";

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
