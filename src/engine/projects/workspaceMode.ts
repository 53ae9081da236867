import fs from "node:fs";
import type { Database } from "../database.js";
import { EngineError } from "../errors.js";
import { repoGitOrNull, type GitJailMode } from "../isolation/index.js";
import type { Project, WorkspaceMode } from "../schema.js";
import { type Actor, assertAdmin } from "./projectRights.js";
import { getProject, projectForActor } from "./projects.js";

// Issue 18: a project's workspace mode. In `direct` mode its conversations work in its one
// checkout, one agent at a time (./checkoutRule.ts, read by the dispatcher). In `branch` mode each
// conversation works in its lane (engine/lanes: a sealed clone on a branch of its own), side by
// side. A project added through the API that is a git repository root starts in `branch`;
// projects that existed before lanes keep the mode they had (migration 0018 made them `direct`).

export const WORKSPACE_MODES: readonly WorkspaceMode[] = ["direct", "branch"];

/** Whether `dir` is the top of a git work tree (git run as every engine git command is: jailed). */
async function isRepositoryRoot(jail: GitJailMode, dir: string): Promise<boolean> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return false;
  const top = await repoGitOrNull({ jail, cwd: dir }, ["rev-parse", "--show-toplevel"]);
  return top !== null && fs.realpathSync(top) === fs.realpathSync(dir);
}

/** The mode a project added now starts in: `branch` for a git repository root, else `direct`. */
export async function defaultWorkspaceMode(jail: GitJailMode, dir: string): Promise<WorkspaceMode> {
  return (await isRepositoryRoot(jail, dir)) ? "branch" : "direct";
}

/**
 * Sets where a project's conversations work (admins). `branch` is refused for a directory that is
 * not the root of a git repository, since a lane is a clone of it. Lanes that exist stay as they
 * are when a project goes back to `direct` (their conversations' next turns work in the checkout).
 */
export async function setWorkspaceMode(
  db: Database,
  jail: GitJailMode,
  actor: Actor,
  name: string,
  mode: WorkspaceMode,
): Promise<Project> {
  assertAdmin(actor);
  if (!WORKSPACE_MODES.includes(mode)) throw new EngineError("invalid", "workspace_mode_invalid", { mode });
  const project = await projectForActor(db, actor, name);
  if (mode === "branch" && !(await isRepositoryRoot(jail, project.path)))
    throw new EngineError("invalid", "workspace_not_a_repository", {
      name: project.name,
      path: project.path,
    });
  await db.updateTable("projects").set({ workspace_mode: mode }).where("id", "=", project.id).execute();
  return getProject(db, project.id);
}
