import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../kernel.js";
import type { Conversation, Project } from "../schema.js";
import { repoGit, type GitJailMode } from "../isolation/index.js";
import {
  cloneBase,
  commitClone,
  isSealedClone,
  makeClone,
  readClone,
  removeClone,
  unusableWorkdir,
} from "../workspaces/index.js";
import { prepareWorkspace, type SetupProject } from "../setup/index.js";
import { isForkLane } from "./forkLanes.js";
import { t } from "../../i18n/index.js";
import type { Lane } from "./schema.js";

// Issue 18, item 2: in a project in `branch` mode each conversation works in its lane, a sealed
// clone of the project (workspaces/clones.ts, as orchestrations have) on a branch of its own,
// made at its first turn and reused by every later one (follow-ups, decision answers, approvals).
// Nothing here runs inside a database transaction (DESIGN "Traps"): the clone is made first, the
// row written after, so that a worker killed half-way leaves either no row (the retry reuses the
// sealed clone, or makes it again when its seal is missing) or a row whose clone is usable.

/** Where a conversation's lane lives: under the data directory, one folder per project. */
export const lanePath = (dataDir: string, projectId: string, conversationId: string): string =>
  path.join(dataDir, "lanes", projectId, conversationId);

const SLUG_MAX = 24;

/** A branch-safe short form of a title: lower-case ASCII letters and digits joined by dashes. */
function titleSlug(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  return slug || "lane";
}

/** The lane's branch: `codexpi/<short title>-<first 8 characters of the conversation id>`. */
const laneBranch = (title: string, conversationId: string): string =>
  `codexpi/${titleSlug(title)}-${conversationId
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase()}`;

/** What a lane starts from when the request named no branch: the project's current branch. */
interface LaneBase {
  branch: string | null;
  commit: string;
}

/**
 * The branch and commit a new lane starts from: `requested` (the person's `branch=`) when given,
 * else the branch the project's checkout has out (null with its commit when HEAD is detached).
 * One git command (each is a jailed process: lane start-up counts them), through `repoGit`
 * (jailed, read-only): an agent may have written the checkout.
 */
async function laneBaseOf(
  jail: GitJailMode,
  projectPath: string,
  requested?: string | null,
): Promise<LaneBase> {
  const read = (args: string[]) => repoGit({ jail, cwd: projectPath }, args);
  // `refs/heads/…` never reads as an option, whatever the person typed after `branch=`.
  if (requested)
    return {
      branch: requested,
      commit: await read(["rev-parse", "--verify", "-q", `refs/heads/${requested}^{commit}`]),
    };
  const [commit = "", ref = ""] = (
    await read(["rev-parse", "HEAD^{commit}", "--symbolic-full-name", "HEAD"])
  ).split("\n");
  return { branch: ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null, commit };
}

/** The lane row of a conversation, whatever its state. */
export async function laneOf(db: Kernel["db"], conversationId: string): Promise<Lane | undefined> {
  return db.selectFrom("lanes").selectAll().where("conversation_id", "=", conversationId).executeTakeFirst();
}

/**
 * The conversation whose lane opened pull request `number` of a project (its issue's, or the card's
 * Open pull request), with the pull request's link as the forge gave it, or null. The latest when
 * two lanes ever named the same number.
 */
export async function conversationOfPullRequest(
  db: Kernel["db"],
  projectId: string,
  number: number,
): Promise<{ conversationId: string; url: string } | null> {
  const row = await db
    .selectFrom("lanes")
    .select(["conversation_id", "pr_url"])
    .where("project_id", "=", projectId)
    .where("pr_number", "=", number)
    .orderBy("updated_at", "desc")
    .executeTakeFirst();
  return row ? { conversationId: row.conversation_id, url: row.pr_url ?? "" } : null;
}

/** What a conversation's first turn needs to open its lane. */
export interface LaneRequest {
  conversation: Pick<Conversation, "id" | "title">;
  project: Pick<Project, "id" | "path"> & SetupProject;
  /** The base branch the person named (`branch=`); the project's current branch when absent. */
  baseBranch?: string | null;
}

/**
 * The directory a branch-mode conversation's agent works in: its lane, made at its first turn,
 * made again when its clone vanished (same branch, same base), reopened from the project's
 * current branch when it was merged, discarded or expired and the conversation goes on. A lane
 * just made is prepared by the project's setup (engine/setup) before it is returned. Throws
 * when the clone cannot be made or its seal no longer matches (the item then fails: it never falls
 * back to the project's checkout), and SetupFailed when its setup failed.
 */
export async function ensureLane(
  engine: Pick<Kernel, "db" | "config" | "clock" | "logger">,
  req: LaneRequest,
): Promise<string> {
  const { db, config, clock } = engine;
  const dest = lanePath(config.dataDir, req.project.id, req.conversation.id);
  const row = await laneOf(db, req.conversation.id);
  const prepared = row?.setup_hash != null;
  if (row?.status === "active" && row.path === dest && prepared && !unusableWorkdir(dest)) return dest;
  if (row?.status === "active") {
    // Its clone vanished, was left half-made, or was never prepared (its setup failed or was cut
    // short: what it left is no base to run it again on): the same branch again, at the same base.
    if (!prepared) removeClone(dest);
    await makeClone(config.jail, req.project.path, dest, row.branch, row.base_commit);
    await touchLane(engine, req.conversation.id, { path: dest, setup_hash: null });
    await prepareLane(engine, req, dest, row.base_commit, isForkLane(row));
    return dest;
  }
  const branch = row?.branch ?? laneBranch(req.conversation.title, req.conversation.id);
  // A sealed clone without an active row is a creation cut short after the clone: reused with the
  // base it was made at, so that the row says what the clone holds.
  const reuse = !row && fs.existsSync(dest) && isSealedClone(dest) ? cloneBase(dest) : null;
  const base = await laneBaseOf(config.jail, req.project.path, req.baseBranch);
  if (row) removeStale(dest);
  await makeClone(config.jail, req.project.path, dest, branch, reuse ?? base.commit);
  const now = clock.now();
  const values = {
    project_id: req.project.id,
    path: dest,
    branch,
    base_branch: base.branch,
    base_commit: reuse ?? base.commit,
    status: "active" as const,
    updated_at: now,
    finished_at: null,
    setup_hash: null,
  };
  if (row)
    await db.updateTable("lanes").set(values).where("conversation_id", "=", req.conversation.id).execute();
  else
    await db
      .insertInto("lanes")
      .values({ ...values, conversation_id: req.conversation.id, created_at: now })
      .onConflict((oc) => oc.column("conversation_id").doNothing())
      .execute();
  await prepareLane(engine, req, dest, reuse ?? base.commit, isForkLane({ base_branch: base.branch }));
  return dest;
}

/**
 * Runs the project's setup in a lane just made (or brings in its cached result) and records what
 * prepared it. A failed setup takes the clone with it: the lane's next turn makes it again and
 * retries, from a clean clone.
 */
async function prepareLane(
  engine: Pick<Kernel, "db" | "config" | "clock" | "logger">,
  req: LaneRequest,
  dest: string,
  base: string,
  fromFork: boolean,
): Promise<void> {
  let hash: string;
  try {
    ({ hash } = await prepareWorkspace(engine, req.project, dest, base, { withoutSecrets: fromFork }));
  } catch (err) {
    removeClone(dest);
    throw err;
  }
  await touchLane(engine, req.conversation.id, { setup_hash: hash });
}

/** A finished lane's leftovers (a clone its cleanup could not remove) before it is made again. */
function removeStale(dest: string): void {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.rmSync(`${dest}.seal`, { force: true });
}

async function touchLane(
  engine: Pick<Kernel, "db" | "clock">,
  conversationId: string,
  extra: { path?: string; setup_hash?: string | null } = {},
): Promise<void> {
  await engine.db
    .updateTable("lanes")
    .set({ updated_at: engine.clock.now(), ...extra })
    .where("conversation_id", "=", conversationId)
    .execute();
}

/** What a turn left in its lane, once committed. */
export type LaneCommit = { branch: string; revision: string; changed: boolean } | { error: string };

/**
 * After each turn in a lane (the worker calls it whatever the turn's outcome, before writing the
 * outcome): commits everything the agent changed on the lane's branch, so that base..branch says
 * what the conversation did; a turn that changed nothing makes no commit. Null when the
 * conversation has no active lane. Never throws: a commit that fails is reported, the turn's
 * answer still goes out, and the next turn's commit takes those changes too.
 */
export async function laneAfterTurn(
  engine: Pick<Kernel, "db" | "config" | "clock">,
  conversation: Pick<Conversation, "id" | "title">,
): Promise<LaneCommit | null> {
  const row = await laneOf(engine.db, conversation.id);
  if (row?.status !== "active" || !fs.existsSync(row.path)) return null;
  try {
    const before = await headOf(engine.config.jail, row.path);
    const message = t(engine.config.locale, "lanes.commit_message", {
      title: conversation.title.slice(0, 72),
    });
    const revision = await commitClone(engine.config.jail, row.path, message);
    await touchLane(engine, conversation.id);
    return { branch: row.branch, revision, changed: revision !== before };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** A sealed clone's HEAD: the first git command after a turn, so the seal is checked here too. */
async function headOf(jail: GitJailMode, clone: string): Promise<string> {
  return readClone(jail, clone, ["rev-parse", "HEAD"]);
}
