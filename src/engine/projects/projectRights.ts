import type { Locale } from "../../i18n/index.js";
import type { Database } from "../database.js";
import { EngineError } from "../errors.js";
import type { Project } from "../schema.js";
import { shareRight } from "./channelShares.js";

// Who may do what with a project: see it, read its conversations, prompt it, administer it
// (DESIGN "See and prompt are distinct", "Shared specialists"). The conversation-level rule built
// on these is in access.ts.

/** Who is asking: a Slack user (or the local operator through the CLI) and whether they are an admin. */
export interface Actor {
  userId: string;
  isAdmin: boolean;
  /**
   * Slack channels this person was found to be a member of (the bot resolves them): they may read
   * the conversations of a project visible to its channel. Never a right to prompt.
   */
  channels?: readonly string[];
  /**
   * The language this person reads (the bot passes their Slack locale): what the engine writes on
   * their behalf, such as their answer relayed to an agent, is in it. Absent: `CODEXPI_LOCALE`.
   */
  locale?: Locale;
  /**
   * The front end a Slack member acts through when it is not Slack: `forge` for a request made on
   * GitHub or GitLab by an account linked to them (issue 33). Only the audit reads it (`via`).
   */
  via?: "forge";
}

/** The local operator, for CLI commands: the machine's owner is an admin. */
export const CLI_ACTOR: Actor = { userId: "cli", isAdmin: true };

/** The execution group of specialist workspaces (their failures are the delegation's business). */
export const SPECIALIST_GROUP = "__specialist__";

/** A project is visible to its owner and admins; a legacy project with no owner to everyone. */
export function canSee(actor: Actor, project: Pick<Project, "owner_id">): boolean {
  return actor.isAdmin || project.owner_id === null || project.owner_id === actor.userId;
}

/**
 * May the actor read the project's conversations (see them listed, follow them)? Those who see it,
 * and, when its owner made it visible to its channel, that channel's members (DESIGN "See and
 * prompt are distinct"). Reading never gives the right to prompt: see `mayPromptProject`.
 */
export function canRead(
  actor: Actor,
  project: Pick<Project, "owner_id"> & Partial<Pick<Project, "visibility" | "channel_id">>,
): boolean {
  if (canSee(actor, project)) return true;
  const channel = project.channel_id;
  return project.visibility === "channel" && !!channel && (actor.channels ?? []).includes(channel);
}

/** Whether the project's owner allowed this person to prompt it. */
async function isAllowedPrompter(db: Database, projectId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("project_prompters")
    .select("user_id")
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * May the actor start work in this project? Those `canPromptProject` admits, the people its
 * owner allowed, the members of a channel it shared it with to prompt (never in a shared specialist, which only admins prompt directly).
 */
export async function mayPromptProject(
  db: Database,
  actor: Actor,
  project: Pick<Project, "id" | "owner_id" | "execution_group">,
): Promise<boolean> {
  if (canPromptProject(actor, project)) return true;
  if (isSharedSpecialist(project)) return false;
  // Allowed by name, or as a member of a channel the project is shared with to prompt.
  return (
    (await isAllowedPrompter(db, project.id, actor.userId)) ||
    (await shareRight(db, actor, project.id)) === "prompt"
  );
}

/** A shared specialist's workspace: a specialist project nobody owns (DESIGN "Shared specialists"). */
export function isSharedSpecialist(project: Pick<Project, "owner_id" | "execution_group">): boolean {
  return project.execution_group === SPECIALIST_GROUP && project.owner_id === null;
}

/**
 * May the actor start work in this project (ask, mention, DM, orchestrate)? They must see it, and
 * a shared specialist takes direct prompts from admins only: it serves everyone's agents through
 * delegations, but no one may talk it into anything on their own (DESIGN "See and prompt are distinct").
 */
export function canPromptProject(
  actor: Actor,
  project: Pick<Project, "owner_id" | "execution_group">,
): boolean {
  return canSee(actor, project) && (actor.isAdmin || !isSharedSpecialist(project));
}

/** Only admins administer projects. */
export function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new EngineError("forbidden", "admins_only");
}
