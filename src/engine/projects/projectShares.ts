import type { Clock } from "../clock.js";
import type { Database } from "../database.js";
import type { Project } from "../schema.js";
import type { Actor } from "./projectRights.js";
import { projectForOwner } from "./projects.js";

/**
 * Shares a project with a channel (its owner or an admin): the channel's members read it, and
 * prompt it with `prompt`; sharing again replaces what the share gives.
 */
export async function shareProject(
  db: Database,
  clock: Clock,
  actor: Actor,
  name: string,
  channel: string,
  prompt: boolean,
): Promise<Project> {
  const project = await projectForOwner(db, actor, name);
  const values = { may_prompt: prompt ? 1 : 0, added_by: actor.userId, created_at: clock.now() };
  await db
    .insertInto("project_channel_shares")
    .values({ project_id: project.id, channel_id: channel, ...values })
    .onConflict((oc) => oc.columns(["project_id", "channel_id"]).doUpdateSet(values))
    .execute();
  return project;
}

/** Stops sharing a project with a channel (its owner or an admin); answers whether it was. */
export async function unshareProject(
  db: Database,
  actor: Actor,
  name: string,
  channel: string,
): Promise<{ project: Project; removed: boolean }> {
  const project = await projectForOwner(db, actor, name);
  const rows = await db
    .deleteFrom("project_channel_shares")
    .where("project_id", "=", project.id)
    .where("channel_id", "=", channel)
    .returning("channel_id")
    .execute();
  return { project, removed: rows.length > 0 };
}
