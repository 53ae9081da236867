import type { Database } from "../database.js";
import type { Project } from "../schema.js";
import { type Actor, mayPromptProject } from "../projects/index.js";

/**
 * May the actor keep, edit or forget the project's notes (and answer its agents' proposals)? Its
 * owner and admins; its prompters too when the project says `--memory-writers prompters`
 * (DESIGN "Memory is curated").
 */
export async function mayWriteMemory(
  db: Database,
  actor: Actor,
  project: Pick<Project, "id" | "owner_id" | "execution_group" | "memory_writers">,
): Promise<boolean> {
  if (actor.isAdmin || (project.owner_id !== null && project.owner_id === actor.userId)) return true;
  return project.memory_writers === "prompters" && (await mayPromptProject(db, actor, project));
}
