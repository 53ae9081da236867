// How Codex's inner sandbox is chosen for a turn: pure, so the jail and the worker share it.

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
