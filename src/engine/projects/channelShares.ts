import type { Database } from "../database.js";

// A project shared with a channel (`/codex project share`, issue 32): the channel's members read it
// and, when the share says so, prompt it. The front end says which channels a person belongs to
// (`Actor.channels`, resolved among `channelsOpenToMembers`); the engine decides here.

/** The part of an actor a share looks at (projectRights' Actor has it; that module imports this one). */
type Member = { readonly channels?: readonly string[] };

/** What a share gives the person: nothing, reading, or prompting (which includes reading). */
export type ShareRight = "none" | "read" | "prompt";

/** The widest right a share of this project gives the actor through the channels they belong to. */
export async function shareRight(db: Database, actor: Member, projectId: string): Promise<ShareRight> {
  const channels = actor.channels ?? [];
  if (!channels.length) return "none";
  const rows = await db
    .selectFrom("project_channel_shares")
    .select("may_prompt")
    .where("project_id", "=", projectId)
    .where("channel_id", "in", [...channels])
    .execute();
  if (rows.some((r) => r.may_prompt === 1)) return "prompt";
  return rows.length ? "read" : "none";
}

/** The projects shared with one of the actor's channels (listed as theirs to read). */
export async function projectsSharedWith(db: Database, actor: Member): Promise<Set<string>> {
  const channels = actor.channels ?? [];
  if (!channels.length) return new Set();
  const rows = await db
    .selectFrom("project_channel_shares")
    .select("project_id")
    .where("channel_id", "in", [...channels])
    .execute();
  return new Set(rows.map((r) => r.project_id));
}

/** Every channel some project is shared with (the front end resolves who belongs to them). */
export async function sharedChannels(db: Database): Promise<string[]> {
  const rows = await db.selectFrom("project_channel_shares").select("channel_id").distinct().execute();
  return rows.map((r) => r.channel_id);
}
