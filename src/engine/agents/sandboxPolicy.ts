import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type {} from "../orchestrations/schema.js"; // the orchestrations table
import type {} from "../runs/schema.js"; // the runs tables
import { SPECIALIST_GROUP } from "./projects.js";

/** What a conversation is for; decides how its agent may run, whatever queued each turn. */
export type AgentPurpose = "conversation" | "run" | "orchestration" | "specialist" | "self_repair";

/** How Codex's inner sandbox is set for a turn (the outer jail is always there). */
export type SandboxMode = "restricted" | "full_access";

/**
 * Full access is granted by an admin per project, and only plain conversations use it: a person
 * at the keyboard asked for that project's agent. A run (autonomous, plan text from a user), an
 * orchestration (its clone is the only place it may write until the merge), a specialist (serves
 * anyone's agents) and the self-repair agent (failure text is attacker-controlled) never do —
 * whatever item (a decision answer, a specialist result, a retry) started the turn.
 */
const FULL_ACCESS_ALLOWED = {
  conversation: true,
  run: false,
  orchestration: false,
  specialist: false,
  self_repair: false,
} as const satisfies Record<AgentPurpose, boolean>;

/** The one decision: the conversation's purpose and the project's flag, never the item's origin. */
export function sandboxFor(purpose: AgentPurpose, projectFullAccess: boolean): SandboxMode {
  return projectFullAccess && FULL_ACCESS_ALLOWED[purpose] ? "full_access" : "restricted";
}

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
