import path from "node:path";
import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { emit } from "../outbox.js";
import { conversationRights, type Actor } from "../projects/index.js";
import type { Project } from "../schema.js";
import { assertSealed, commitClone } from "../workspaces/index.js";
import {
  assertCanPublish,
  openProjectPullRequest,
  pushProjectBranch,
  type PullRequest,
} from "../forge/index.js";
import { conflictFollowUpPrompt, mergeLane, updateLaneBase } from "./merge.js";
import { readLaneChanges } from "./card.js";
import { laneOf } from "./lane.js";
import type { Lane } from "./schema.js";
import { conversationBusy, endLane } from "./sweep.js";
import { t } from "../../i18n/index.js";
import { assertNotFromFork } from "./forkLanes.js";

// How a lane's work leaves (issue 18, items 3 and 4), the use cases behind the card's buttons:
// Merge into the project's branch (its owner and admins, or the conversation's person when the
// project lets its prompters merge), Push branch and Open pull request (the conversation's person
// and admins), Ask the agent to merge the base (whoever may drive the conversation). Each checks
// the acting person first, changes nothing when refused, and announces the lane's new state on the
// outbox (`lane.updated`) so that its card is redrawn. Git runs jailed (repoGit), never inside a
// database transaction; the forge token stays in engine/forge.

type Engine = Pick<Kernel, "db" | "clock" | "config">;

/** A lane with what the rules need: its project, its conversation's person and title. */
export interface LaneScope {
  lane: Lane;
  project: Project;
  personId: string | null;
  title: string;
  rights: { see: boolean; prompt: boolean };
}

export async function scopeOf(engine: Engine, actor: Actor, conversationId: string): Promise<LaneScope> {
  const row = await engine.db
    .selectFrom("conversations")
    .select(["id", "user_id", "title", "project_id"])
    .where("id", "=", conversationId)
    .executeTakeFirst();
  const project = row
    ? await engine.db.selectFrom("projects").selectAll().where("id", "=", row.project_id).executeTakeFirst()
    : undefined;
  const rights =
    row && project
      ? await conversationRights(engine.db, actor, {
          conversation: { id: row.id, user_id: row.user_id },
          project,
        })
      : null;
  if (!row || !project || !rights?.see)
    throw new EngineError("not_found", "conversation_not_found", { name: conversationId });
  const lane = await laneOf(engine.db, conversationId);
  if (!lane) throw new EngineError("not_found", "lane_not_found");
  return { lane, project, personId: row.user_id, title: row.title, rights };
}

/**
 * The lane is active, no agent works or waits in it (its clone would change under git), and its
 * clone is as codexpi sealed it: checked before any git command of a button (merge, push, pull
 * request, ask to merge), since its agent may have written `.git` — a planted `http.*` or
 * `url.*` key would otherwise meet the push's network and token.
 */
export async function assertIdle(engine: Engine, scope: LaneScope): Promise<void> {
  if (scope.lane.status !== "active") throw new EngineError("conflict", "lane_ended");
  if (await conversationBusy(engine.db, scope.lane.conversation_id))
    throw new EngineError("conflict", "lane_busy", { name: scope.lane.conversation_id });
  try {
    assertSealed(scope.lane.path);
  } catch (cause) {
    throw new EngineError("conflict", "lane_unsealed", {}, { cause });
  }
}

const isPerson = (actor: Actor, scope: LaneScope) => scope.personId === actor.userId && scope.rights.prompt;
const isOwner = (actor: Actor, scope: LaneScope) =>
  scope.project.owner_id !== null && scope.project.owner_id === actor.userId;

/** Who may merge: the project's owner and admins; its prompters too when the project says so. */
function assertMayMerge(actor: Actor, scope: LaneScope): void {
  if (actor.isAdmin || isOwner(actor, scope)) return;
  if (scope.project.prompters_merge === 1 && scope.rights.prompt) return;
  throw new EngineError("forbidden", "lane_merge_not_allowed", { name: scope.project.name });
}

/** Who may push and open a pull request: the conversation's person, and admins. */
export function assertMayPublish(actor: Actor, scope: LaneScope): void {
  if (actor.isAdmin || isPerson(actor, scope)) return;
  throw new EngineError("forbidden", "lane_publish_not_allowed");
}

/** Where engine/forge finds codexpi's files and how it runs git. */
export const hostOf = (engine: Engine) => ({ dataDir: engine.config.dataDir, jail: engine.config.jail });

export async function updated(engine: Engine, conversationId: string): Promise<void> {
  await emit(engine.db, engine.clock.now(), { kind: "lane.updated", conversationId });
}

/** The branch a lane merges into; a lane made from a detached HEAD has none. */
function baseOf(scope: LaneScope): string {
  if (!scope.lane.base_branch) throw new EngineError("invalid", "lane_no_base");
  return scope.lane.base_branch;
}

/** The outcome of Merge: merged, or the files in conflict (the card offers the agent's help). */
export type LaneMergeOutcome =
  | { merged: true; revision: string; how: "fast-forward" | "merge-commit" | "already-merged" }
  | { merged: false; conflicts: string[] };

/**
 * Merges the lane's branch into its base in the project's checkout, with the orchestration
 * merge's guarantees (workspaces' mergeIntoCheckout). Refused, with nothing changed, while the
 * checkout has uncommitted changes or another branch out. A conflict leaves the checkout as it was
 * and is kept for the card; a merge ends the lane (its clone removed, its branch now the project's).
 */
export async function mergeLaneOf(
  engine: Engine,
  actor: Actor,
  conversationId: string,
): Promise<LaneMergeOutcome> {
  const scope = await scopeOf(engine, actor, conversationId);
  assertMayMerge(actor, scope);
  await assertIdle(engine, scope);
  const base = baseOf(scope);
  const { lane } = scope;
  await readLaneChanges(engine, lane); // the card keeps its list once the clone is gone
  const r = await mergeLane(engine.config.jail, {
    checkout: scope.project.path,
    clone: lane.path,
    branch: lane.branch,
    base,
    locale: engine.config.locale,
  });
  if (!r.ok && r.reason !== "conflict")
    throw new EngineError(
      "conflict",
      r.reason === "main_dirty" ? "lane_checkout_dirty" : "lane_checkout_moved",
      {
        base,
        name: scope.project.name,
      },
    );
  if (!r.ok) {
    const conflicts = r.files ?? [];
    await engine.db
      .updateTable("lanes")
      .set({ conflict_files: JSON.stringify(conflicts), updated_at: engine.clock.now() })
      .where("conversation_id", "=", conversationId)
      .execute();
    await updated(engine, conversationId);
    return { merged: false, conflicts };
  }
  await engine.db
    .updateTable("lanes")
    .set({ ended_by: actor.userId, merged_revision: r.revision, merged_how: r.how, conflict_files: null })
    .where("conversation_id", "=", conversationId)
    .execute();
  await endLane(engine, lane, "merged");
  await updated(engine, conversationId);
  return { merged: true, revision: r.revision, how: r.how };
}

/** Pushes the lane's branch to the project's remote (its `remote`, `origin` by default). */
export async function pushLane(
  engine: Engine,
  actor: Actor,
  conversationId: string,
): Promise<{ remote: string }> {
  const scope = await scopeOf(engine, actor, conversationId);
  assertMayPublish(actor, scope);
  assertNotFromFork(scope.lane);
  await assertIdle(engine, scope);
  await assertCanPublish(scope.project, hostOf(engine), "push");
  const remote = await pushScope(engine, scope);
  await updated(engine, conversationId);
  return { remote };
}

/** Pushes the lane's branch; answers where it went: the remote's name, or the forge's repository. */
async function pushScope(engine: Engine, scope: LaneScope): Promise<string> {
  const { lane, project } = scope;
  // Only the project's own object store, never what the lane's alternates file lists; the push
  // itself runs from a repository codexpi makes for it (engine/forge's pushRepository).
  const pushed = await pushProjectBranch(
    project,
    { repoPath: lane.path, branch: lane.branch, objects: [path.join(project.path, ".git", "objects")] },
    hostOf(engine),
  );
  const now = engine.clock.now();
  await engine.db
    .updateTable("lanes")
    .set({ pushed_remote: pushed.forgeRepo ?? project.remote, pushed_at: now, updated_at: now })
    .where("conversation_id", "=", lane.conversation_id)
    .execute();
  return pushed.forgeRepo ?? project.remote;
}

/** The request and the agent's last answer: what a pull request's body says of the conversation. */
async function conversationText(engine: Engine, conversationId: string) {
  const messages = engine.db
    .selectFrom("messages")
    .select("content")
    .where("conversation_id", "=", conversationId)
    .where("role", "!=", "system");
  const first = await messages.where("role", "=", "user").orderBy("created_at", "asc").executeTakeFirst();
  const last = await messages
    .where("role", "=", "assistant")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return { request: first?.content ?? "", summary: last?.content ?? "" };
}

const BODY_PART = 4_000;

/**
 * Opens (or finds, when one is open for the branch) the lane's pull request on the project's
 * forge, pushing the branch first when it was not pushed: title from the conversation, body with
 * the request, the agent's summary, the Slack thread's link and who asked.
 */
export async function openLanePullRequest(
  engine: Engine,
  actor: Actor,
  conversationId: string,
  link: { threadUrl: string | null; requester: string; closes?: number },
): Promise<PullRequest> {
  const scope = await scopeOf(engine, actor, conversationId);
  assertMayPublish(actor, scope);
  assertNotFromFork(scope.lane);
  await assertIdle(engine, scope);
  const base = baseOf(scope);
  // Before the push: a pull request that cannot be opened pushes nothing either.
  await assertCanPublish(scope.project, hostOf(engine), "pullRequest");
  await pushScope(engine, scope);
  const { request, summary } = await conversationText(engine, conversationId);
  const locale = engine.config.locale;
  const body = t(locale, "lane.pr_body", {
    request: request.slice(0, BODY_PART),
    summary: summary.slice(0, BODY_PART),
    thread: link.threadUrl ?? "-",
    requester: link.requester,
  });
  // The forges' own keyword (GitHub and GitLab both honour it): merged, the pull request closes the issue.
  const closing = link.closes ? `\n\nCloses #${link.closes}` : "";
  const pr = await openProjectPullRequest(
    scope.project,
    { head: scope.lane.branch, base, title: scope.title.slice(0, 200), body: `${body}${closing}` },
    hostOf(engine),
  );
  await engine.db
    .updateTable("lanes")
    .set({ pr_url: pr.url, pr_number: pr.number, pr_state: pr.state, updated_at: engine.clock.now() })
    .where("conversation_id", "=", conversationId)
    .execute();
  await updated(engine, conversationId);
  return pr;
}

/** What "Ask the agent to merge" did: nothing to merge, merged cleanly, or a follow-up asked. */
export type AskMergeOutcome = { kind: "up_to_date" } | { kind: "merged" } | { kind: "asked"; prompt: string };

/**
 * Brings the project's base into the lane and starts merging it there (engine lanes'
 * updateLaneBase): a clean merge is committed at once; conflicts are left for the agent, and the
 * caller queues the returned prompt as a follow-up (the conversations use case, so that the usual
 * rights and dispatch apply). Whoever may drive the conversation may ask.
 */
export async function askAgentToMerge(
  engine: Engine,
  actor: Actor,
  conversationId: string,
): Promise<AskMergeOutcome> {
  const scope = await scopeOf(engine, actor, conversationId);
  if (!scope.rights.prompt) throw new EngineError("forbidden", "not_allowed_to_drive");
  await assertIdle(engine, scope);
  const base = baseOf(scope);
  const jail = engine.config.jail;
  const locale = engine.config.locale;
  await commitClone(
    jail,
    scope.lane.path,
    t(locale, "lanes.commit_message", { title: scope.title.slice(0, 72) }),
  );
  const message = t(locale, "lane.merge_message", { branch: base, base: scope.lane.branch });
  const update = await updateLaneBase(jail, { checkout: scope.project.path, clone: scope.lane.path, base });
  if (!update.merging) return { kind: "up_to_date" };
  if (update.conflicts.length === 0) {
    await commitClone(jail, scope.lane.path, message);
    await clearConflict(engine, conversationId);
    return { kind: "merged" };
  }
  await clearConflict(engine, conversationId);
  // The person's request, relayed in their language (as their decision answers are).
  const prompt = conflictFollowUpPrompt(actor.locale ?? locale, base, update.conflicts);
  return { kind: "asked", prompt };
}

async function clearConflict(engine: Engine, conversationId: string): Promise<void> {
  await engine.db
    .updateTable("lanes")
    .set({ conflict_files: null, updated_at: engine.clock.now() })
    .where("conversation_id", "=", conversationId)
    .execute();
  await updated(engine, conversationId);
}
