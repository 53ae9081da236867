import { projectsSharedWith, shareRight, sharedChannels } from "./channelShares.js";
import fs from "node:fs";
import path from "node:path";
import {
  claimLock,
  dialectOf,
  takeLocks,
  uniqueViolationOf,
  writeTransaction,
  type Database,
} from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import type { Clock } from "../clock.js";
import { normalizeName } from "../protocol/index.js";
import { closest } from "../../suggest.js";
import type {
  ApprovalMode,
  MemoryWriters,
  Project,
  ProjectRole,
  ProjectVisibility,
  ThreadPrompters,
  WorkspaceMode,
} from "../schema.js";
import type { NetworkMode } from "../network/index.js";
import { assertNoOverlap, projectProblems, realPath, realRoots, type InstallRoots } from "./layout.js";
import {
  type Actor,
  SPECIALIST_GROUP,
  assertAdmin,
  canRead,
  isSharedSpecialist,
  mayPromptProject,
} from "./projectRights.js";

/** What an admin supplies to register a project. */
export interface NewProject {
  name: string;
  path: string;
  ownerId?: string | null;
  fullAccess?: boolean;
  mergeConfirmation?: boolean;
  channelId?: string | null;
  role?: ProjectRole;
  /**
   * Where its conversations work; `direct` when absent. The API passes the default of a project
   * added now (`defaultWorkspaceMode`: `branch` for a git repository root).
   */
  workspaceMode?: WorkspaceMode;
}

const NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N} ._()-]{0,79}$/u;

/**
 * Registers a project after checking its name, path and role; with the install's `roots` (the
 * CLI and Slack pass them), a path holding codexpi's data or running install is refused too.
 */
export async function addProject(
  db: Database,
  clock: Clock,
  input: NewProject,
  roots?: InstallRoots,
): Promise<Project> {
  const name = input.name.trim();
  if (!NAME_RE.test(name)) throw new EngineError("invalid", "project_name_invalid", { name: input.name });
  const { dir, real } = projectDirectory(name, input.path, roots);
  const role = input.role ?? "project";
  const row = {
    id: newId(),
    name,
    path: dir,
    owner_id: input.ownerId ?? null,
    full_access: input.fullAccess ? 1 : 0,
    execution_group: null,
    merge_confirmation_required: input.mergeConfirmation ? 1 : 0,
    channel_id: input.channelId ?? null,
    role,
    created_at: clock.now(),
    // A new project never asks: on-request is an admin's choice (`project set --approvals`).
    approval_mode: "never" as ApprovalMode,
    visibility: "private" as const,
    steer: 0, // a follow-up queues until an owner or admin lets it steer the running turn
    host: null,
    workspace_mode: input.workspaceMode ?? ("direct" as WorkspaceMode),
    // Pushed to `origin`; its forge derived from the remote's URL until an admin names one.
    remote: "origin",
    forge: null,
    forge_url: null,
    forge_repo: null,
    prompters_merge: 0, // its owner and admins merge its lanes until an admin lets its prompters
    allowed_models: null, // only Codex's configured model until an admin lists others (`--models`)
    // No network until someone lists hosts (`project allow-host`) or opens it (`--network open`).
    network_mode: "allowlist" as NetworkMode,
    network_hosts: "[]",
    setup_command: null, // the repository's committed `.codexpi/setup`, if any, until an admin sets one
    memory_writers: "owners" as MemoryWriters, // its owner and admins keep its notes until an admin says prompters
    // Its thread is the team's: whoever may prompt it follows up in any of its conversations.
    thread_prompters: "prompters" as ThreadPrompters,
  };
  // Checks and write under one write lock: a project added meanwhile by another process cannot
  // slip in between (and surface as a raw constraint error).
  // Global lock (PostgreSQL): a rare admin write (unique indexes on name and role back the check anyway).
  await writeTransaction(db, async (trx) => {
    const existing = await findProjectByName(trx, name);
    if (existing) throw new EngineError("conflict", "project_exists", { name: existing.name });
    if (role !== "project") await assertRoleFree(trx, role);
    await assertNoOverlap(trx, dir, real);
    await trx.insertInto("projects").values(row).execute().catch(clash({ name, role }));
  });
  return row;
}

/**
 * The directory a project may have: an existing directory (`dir`, absolute; `real`, symlinks
 * resolved) holding neither codexpi's data nor its install when `roots` are given. Whether it
 * overlaps another project is checked in the write transaction (`assertNoOverlap`).
 */
function projectDirectory(name: string, given: string, roots?: InstallRoots): { dir: string; real: string } {
  const dir = path.resolve(given);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new EngineError("invalid", "project_path_invalid", { path: dir });
  }
  const real = realPath(dir);
  const [problem] = roots ? projectProblems(name, real, realRoots(roots)) : [];
  if (problem?.kind === "data_in_project")
    throw new EngineError("invalid", "project_holds_data", {
      path: problem.projectPath,
      other: problem.dataDir,
    });
  if (problem?.kind === "install_in_project")
    throw new EngineError("invalid", "project_holds_install", {
      path: problem.projectPath,
      other: problem.installDir,
    });
  return { dir, real };
}

/** Refuses a master or self role another project already holds. */
async function assertRoleFree(trx: Database, role: ProjectRole, except?: string): Promise<void> {
  let q = trx.selectFrom("projects").select("name").where("role", "=", role);
  if (except) q = q.where("id", "<>", except);
  const holder = await q.executeTakeFirst();
  if (holder) throw new EngineError("conflict", "role_taken", { role, name: holder.name });
}

/**
 * A unique constraint the checks above should have caught (a name differing only in a way they
 * do not see) is a conflict like theirs, never a raw database error.
 */
const clash =
  (what: { name: string; role: ProjectRole }) =>
  (err: unknown): never => {
    const violated = uniqueViolationOf(err);
    if (violated === null) throw err;
    if (/projects\.name|projects_name_key/.test(violated))
      throw new EngineError("conflict", "project_exists", { name: what.name }, { cause: err });
    throw new EngineError("conflict", "project_clash", { name: what.name, role: what.role }, { cause: err });
  };

/** Finds a project by exact name, else by normalised name ("Agent Maître" matches "agentmaitre"). */
export async function findProjectByName(db: Database, name: string): Promise<Project | undefined> {
  const exact = await db.selectFrom("projects").selectAll().where("name", "=", name).executeTakeFirst();
  if (exact) return exact;
  const key = normalizeName(name);
  if (!key) return undefined;
  const all = await db.selectFrom("projects").selectAll().execute();
  return all.find((p) => normalizeName(p.name) === key);
}

/**
 * The project an actor asked for by name, to work in it (ask, mention, DM, orchestrate); "not
 * found" also when it exists but is not theirs, or is a shared specialist and they are no admin;
 * "forbidden" for someone who may only read it (a member of the channel it is visible to).
 */
export async function projectForActor(db: Database, actor: Actor, name: string): Promise<Project> {
  const project = await findProjectByName(db, name);
  if (project && (await mayPromptProject(db, actor, project))) return project;
  // A shared specialist is everyone's to read through its delegations, never to prompt: not found.
  if (
    project &&
    !isSharedSpecialist(project) &&
    (canRead(actor, project) || (await shareRight(db, actor, project.id)) !== "none")
  )
    throw new EngineError("forbidden", "project_read_only", {
      name: project.name,
      owner: project.owner_id ?? "",
    });
  throw await projectNotFound(db, actor, name);
}

/**
 * "Project not found", with the name a typo most likely meant (issue 32): taken only from the
 * projects this actor may see, so that it never reveals a hidden project's name.
 */
export async function projectNotFound(db: Database, actor: Actor, name: string): Promise<EngineError> {
  const visible = (await listProjects(db, actor)).map((p) => p.name);
  const suggestion = closest(name, visible);
  return new EngineError("not_found", "project_not_found", suggestion ? { name, suggestion } : { name });
}

/**
 * Projects an actor may read or prompt, by name (specialists' workspaces are listed with the
 * specialists).
 */
export async function listProjects(db: Database, actor: Actor): Promise<Project[]> {
  const all = await db.selectFrom("projects").selectAll().orderBy("name").execute();
  const shared = await projectsSharedWith(db, actor);
  const allowed = new Set(
    (
      await db
        .selectFrom("project_prompters")
        .select("project_id")
        .where("user_id", "=", actor.userId)
        .execute()
    ).map((r) => r.project_id),
  );
  return all.filter(
    (p) =>
      (canRead(actor, p) || allowed.has(p.id) || shared.has(p.id)) && p.execution_group !== SPECIALIST_GROUP,
  );
}

/** The channels whose members may read a project (the bot checks who belongs to them). */
export async function channelsOpenToMembers(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom("projects")
    .select("channel_id")
    .distinct()
    .where("visibility", "=", "channel")
    .where("channel_id", "is not", null)
    .execute();
  // And the channels a project is shared with (`project share`).
  const shared = await sharedChannels(db);
  return [...new Set([...rows.map((r) => r.channel_id as string), ...shared])];
}

/**
 * Sets who may read the project (its owner or an admin): 'channel' lets its channel's members
 * read and follow its conversations; 'private' keeps them to its owner and admins.
 */
export async function setProjectVisibility(
  db: Database,
  actor: Actor,
  name: string,
  visibility: ProjectVisibility,
): Promise<Project> {
  const project = await projectForOwner(db, actor, name);
  await db.updateTable("projects").set({ visibility }).where("id", "=", project.id).execute();
  return getProject(db, project.id);
}

/**
 * Lets (or no longer lets) a follow-up written while the project's turn runs on the app-server
 * be sent into that turn instead of queueing (its owner or an admin).
 */
export async function setProjectSteer(
  db: Database,
  actor: Actor,
  name: string,
  on: boolean,
): Promise<Project> {
  const project = await projectForOwner(db, actor, name);
  await db
    .updateTable("projects")
    .set({ steer: on ? 1 : 0 })
    .where("id", "=", project.id)
    .execute();
  return getProject(db, project.id);
}

/** The values of `--thread-prompters`. */
export const THREAD_PROMPTERS: readonly ThreadPrompters[] = ["author", "prompters"];

/**
 * Who may follow up, stop and answer decisions in the project's conversations besides their
 * author, its owner and admins (its owner or an admin): anyone allowed to prompt it, or nobody.
 */
export async function setProjectThreadPrompters(
  db: Database,
  actor: Actor,
  name: string,
  who: ThreadPrompters,
): Promise<Project> {
  if (!THREAD_PROMPTERS.includes(who)) throw new EngineError("invalid", "thread_prompters_invalid");
  const project = await projectForOwner(db, actor, name);
  await db.updateTable("projects").set({ thread_prompters: who }).where("id", "=", project.id).execute();
  return getProject(db, project.id);
}

/** Allows (or no longer allows) a person to prompt the project (its owner or an admin). */
export async function setProjectPrompter(
  db: Database,
  clock: Clock,
  actor: Actor,
  name: string,
  userId: string,
  allowed: boolean,
): Promise<Project> {
  const project = await projectForOwner(db, actor, name);
  if (allowed)
    await db
      .insertInto("project_prompters")
      .values({ project_id: project.id, user_id: userId, added_by: actor.userId, created_at: clock.now() })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doNothing())
      .execute();
  else
    await db
      .deleteFrom("project_prompters")
      .where("project_id", "=", project.id)
      .where("user_id", "=", userId)
      .execute();
  return project;
}

/** Reads one project by id or throws not_found. */
export async function getProject(db: Database, id: string): Promise<Project> {
  const p = await db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
  if (!p) throw new EngineError("not_found", "project_not_found", { name: id });
  return p;
}

/** What an admin may change on a project; absent fields stay, null clears. */
export interface ProjectUpdate {
  owner?: string | null;
  channel?: string | null;
  fullAccess?: boolean;
  mergeConfirmation?: boolean;
  /** Whether a conversation's person may merge its lane into the project (else owner and admins). */
  promptersMerge?: boolean;
  role?: ProjectRole;
  /** Whether escalations ask a person (`on-request`) or are refused by Codex's sandbox (`never`). */
  approvalMode?: ApprovalMode;
  /** The worker host it runs on; null: the coordinator's own machine. A host must have registered. */
  host?: string | null;
  /** Its directory: checked as `addProject` checks it, overlap with other projects included. */
  path?: string;
  /** The models a request may name with `model=`; null or []: only Codex's configured model. */
  models?: string[] | null;
  /** Who keeps its notes besides its owner and admins (engine/memory). */
  memoryWriters?: MemoryWriters;
}

/** A model's name as `--models` takes it (what `codex -m` takes: no spaces, no commas). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;

/** The `allowed_models` column of a `--models` list: a JSON array, null for none. */
function modelsColumn(models: string[] | null): string | null {
  const bad = (models ?? []).find((m) => !MODEL_NAME.test(m));
  if (bad !== undefined) throw new EngineError("invalid", "project_models_invalid", { model: bad });
  return models?.length ? JSON.stringify([...new Set(models)]) : null;
}

/** Refuses a placement on a host that never registered (a typo would strand the project's work). */
async function requireHost(db: Database, name: string): Promise<void> {
  const row = await db.selectFrom("hosts").select("name").where("name", "=", name).executeTakeFirst();
  if (!row) throw new EngineError("not_found", "host_not_found", { name });
}

/**
 * Changes a project's settings (admins); a new path is checked as `addProject` checks one (with
 * the install's `roots` when given) and refused while the project has work queued or running.
 */
export async function updateProject(
  db: Database,
  actor: Actor,
  name: string,
  changes: ProjectUpdate,
  roots?: InstallRoots,
): Promise<Project> {
  assertAdmin(actor);
  const moved = changes.path !== undefined ? projectDirectory(name, changes.path, roots) : null;
  const set = {
    ...(moved ? { path: moved.dir } : {}),
    ...(changes.owner !== undefined ? { owner_id: changes.owner } : {}),
    ...(changes.channel !== undefined ? { channel_id: changes.channel } : {}),
    ...(changes.fullAccess !== undefined ? { full_access: changes.fullAccess ? 1 : 0 } : {}),
    ...(changes.promptersMerge !== undefined ? { prompters_merge: changes.promptersMerge ? 1 : 0 } : {}),
    ...(changes.mergeConfirmation !== undefined
      ? { merge_confirmation_required: changes.mergeConfirmation ? 1 : 0 }
      : {}),
    ...(changes.role !== undefined ? { role: changes.role } : {}),
    ...(changes.approvalMode !== undefined ? { approval_mode: changes.approvalMode } : {}),
    ...(changes.host !== undefined ? { host: changes.host } : {}),
    ...(changes.models !== undefined ? { allowed_models: modelsColumn(changes.models) } : {}),
    ...(changes.memoryWriters !== undefined ? { memory_writers: changes.memoryWriters } : {}),
  };
  // Check and write under one write lock: a role given to another project meanwhile is seen.
  // Global lock (PostgreSQL): a rare admin write whose role check is a read-then-write.
  return writeTransaction(db, async (trx) => {
    const project = await projectForActor(trx, actor, name);
    if (changes.role && changes.role !== "project" && changes.role !== project.role)
      await assertRoleFree(trx, changes.role, project.id);
    if (changes.host) await requireHost(trx, changes.host);
    if (moved) {
      await assertNoOverlap(trx, moved.dir, moved.real, project.id);
      // A running agent, or one about to start, works in the old directory: move an idle project.
      if (await hasWork(trx, project.id))
        throw new EngineError("conflict", "project_busy", { name: project.name });
    }
    // Claims take no global lock: a placement change waits for both placements' claims, as moveProject.
    if (changes.host !== undefined) await takeLocks(trx, [claimLock(project.host), claimLock(changes.host)]);
    if (Object.keys(set).length)
      await trx
        .updateTable("projects")
        .set(set)
        .where("id", "=", project.id)
        .execute()
        .catch(clash({ name: project.name, role: changes.role ?? project.role }));
    return getProject(trx, project.id);
  });
}

/**
 * The project an actor may configure for others' use (e.g. a channel's default): admins and its
 * owner; "not found" for those who cannot see it, "forbidden" for those who can but do not own it.
 */
export async function projectForOwner(db: Database, actor: Actor, name: string): Promise<Project> {
  const project = await projectForActor(db, actor, name);
  if (!actor.isAdmin && project.owner_id !== actor.userId)
    throw new EngineError("forbidden", "not_allowed_to_drive");
  return project;
}

/** Removes a project and its conversations (admins); refused while an agent runs in it. */
export async function removeProject(db: Database, actor: Actor, name: string): Promise<Project> {
  assertAdmin(actor);
  // Check and delete under one write lock: work enqueued by another process between them would
  // be deleted with the project (conversations and queue items cascade).
  // Global lock (PostgreSQL): a rare admin delete; it also locks the project's rows (see below).
  return writeTransaction(db, async (trx) => {
    const project = await projectForActor(trx, actor, name);
    // Enqueues take no global lock (PostgreSQL): the project's row (new conversations check it as
    // their foreign key) and its conversations' rows (enqueues lock them) are held until the
    // delete, so work queued meanwhile is either seen below or refused after, never deleted unseen.
    if (dialectOf(trx) === "postgres") {
      await trx.selectFrom("projects").select("id").where("id", "=", project.id).forUpdate().execute();
      await trx
        .selectFrom("conversations")
        .select("id")
        .where("project_id", "=", project.id)
        .forUpdate()
        .execute();
    }
    if (await hasWork(trx, project.id))
      throw new EngineError("conflict", "project_busy", { name: project.name });
    await trx.deleteFrom("runtime_policies").where("scope", "=", project.id).execute();
    await trx.deleteFrom("projects").where("id", "=", project.id).execute();
    return project;
  });
}

/** Whether the project has work queued or running. */
async function hasWork(trx: Database, projectId: string): Promise<boolean> {
  const busy = await trx
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .select("q.id")
    .where("c.project_id", "=", projectId)
    .where("q.status", "in", ["queued", "running"])
    .executeTakeFirst();
  return busy !== undefined;
}
