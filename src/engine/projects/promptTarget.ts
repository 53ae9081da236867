import type { Database } from "../database.js";
import { EngineError } from "../errors.js";
import { type Actor, canRead, isSharedSpecialist, mayPromptProject } from "./projectRights.js";
import { findProjectByName, listProjects } from "./projects.js";
import { shareRight } from "./channelShares.js";

/** Where a mention or DM goes: a project with its prompt, or a choice the person must make. */
export type PromptTarget =
  | { kind: "project"; project: string; prompt: string }
  | { kind: "choose"; projects: string[]; prompt: string };

/**
 * Decides where a mention or DM goes. A first word naming a project the person may prompt wins
 * (the existing "<project> <prompt>" form); otherwise the whole text is the prompt, for the
 * channel's default project, else (in a DM) the person's last project, else the projects they may
 * prompt are offered (the only one, without asking). A default they may not prompt is passed over, as if it did not exist
 * (visibility: "not found", never "forbidden").
 */
export async function promptTarget(
  db: Database,
  actor: Actor,
  text: string,
  /** `channelDefault`: the id of the channel's default project, if it has one. */
  where: { channelDefault: string | null; dm: boolean },
): Promise<PromptTarget | null> {
  const trimmed = text.trim();
  if (!trimmed) return null;
  // The first word, or a "quoted name" (straight or typographic quotes), then the rest.
  const m = /^(?:"([^"]*)"|“([^”]*)”|«\s*([^»]*?)\s*»|(\S+))\s*([\s\S]*)$/.exec(trimmed);
  const rest = m?.[5]?.trim() ?? "";
  const named = await promptable(db, actor, m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? "", { reserved: true });
  if (named) return rest ? { kind: "project", project: named, prompt: rest } : null;
  const fallback =
    (where.channelDefault ? await promptableById(db, actor, where.channelDefault) : null) ??
    (where.dm ? await lastProject(db, actor) : null);
  if (fallback) return { kind: "project", project: fallback, prompt: trimmed };
  const projects: string[] = [];
  for (const p of await listProjects(db, actor))
    if (await mayPromptProject(db, actor, p)) projects.push(p.name);
  // One project they may prompt: no question with a single answer (issue 32).
  const [only] = projects;
  if (only && projects.length === 1) return { kind: "project", project: only, prompt: trimmed };
  return { kind: "choose", projects, prompt: trimmed };
}

/**
 * The project named, when the person may prompt it; with `reserved` (a name they wrote), "read
 * only" (who may, how to be allowed) when they may only read it, since they are looking at it
 * (issue 20); null otherwise (not theirs to know).
 */
async function promptable(
  db: Database,
  actor: Actor,
  name: string,
  opts: { reserved?: boolean } = {},
): Promise<string | null> {
  if (!name) return null;
  const p = await findProjectByName(db, name);
  if (!p) return null;
  if (await mayPromptProject(db, actor, p)) return p.name;
  if (
    opts.reserved &&
    !isSharedSpecialist(p) &&
    (canRead(actor, p) || (await shareRight(db, actor, p.id)) !== "none")
  )
    throw new EngineError("forbidden", "project_read_only", { name: p.name, owner: p.owner_id ?? "" });
  return null;
}

async function promptableById(db: Database, actor: Actor, id: string): Promise<string | null> {
  const p = await db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
  return p && (await mayPromptProject(db, actor, p)) ? p.name : null;
}

/** The project of the person's latest conversation they started, if they may still prompt it. */
async function lastProject(db: Database, actor: Actor): Promise<string | null> {
  const rows = await db
    .selectFrom("conversations")
    .innerJoin("projects", "projects.id", "conversations.project_id")
    .select("projects.name")
    .where("conversations.user_id", "=", actor.userId)
    .orderBy("conversations.created_at", "desc")
    .limit(1)
    .execute();
  const name = rows[0]?.name;
  return name ? promptable(db, actor, name) : null;
}
