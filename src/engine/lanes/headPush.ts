import path from "node:path";
import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import type { Actor } from "../projects/index.js";
import { pushProjectBranch } from "../forge/index.js";
import { readClone } from "../workspaces/index.js";
import { assertNotFromFork } from "./forkLanes.js";
import { assertIdle, assertMayPublish, hostOf, scopeOf, updated } from "./leave.js";

// Issue 33, item 3: a conversation started on a pull request pushes its lane's commits to that
// pull request's head branch, never forced. Same checks as the card's Push (who asks, the lane idle
// and sealed), same push (from a bare repository codexpi makes, the remote as the project's
// checkout names it, codexpi's token); only the remote branch differs: the pull request's head,
// which the lane must have started from, so that the push is a fast-forward or nothing. A pull
// request codexpi opened for the lane (an issue's, the card's Open pull request) has the lane's
// own branch as its head: the same push, to that branch.

type Engine = Pick<Kernel, "db" | "clock" | "config">;

/** What a push to a pull request's head did. */
export type HeadPush =
  /** The lane has no commit of its own: nothing to push. */
  | { kind: "no_commits" }
  /** The remote branch already held the lane's last commit. */
  | { kind: "up_to_date"; branch: string }
  | { kind: "pushed"; branch: string; revision: string };

/**
 * Pushes the conversation's lane to `head` on the project's remote (the conversation's person,
 * admins). Refused (`lane_not_on_head`) when `head` is neither the branch the lane started from nor
 * the lane's own branch (its pull request's head): its branch would carry another history. A
 * remote `head` with commits the lane lacks is `forge_push_rejected`.
 */
export async function pushLaneToHead(
  engine: Engine,
  actor: Actor,
  conversationId: string,
  head: string,
): Promise<HeadPush> {
  const scope = await scopeOf(engine, actor, conversationId);
  assertMayPublish(actor, scope);
  assertNotFromFork(scope.lane);
  await assertIdle(engine, scope);
  const { lane, project } = scope;
  if (lane.base_branch !== head && lane.branch !== head)
    throw new EngineError("invalid", "lane_not_on_head", { branch: head });
  const revision = await readClone(engine.config.jail, lane.path, ["rev-parse", "HEAD"]);
  if (revision === lane.base_commit) return { kind: "no_commits" };
  const pushed = await pushProjectBranch(
    project,
    {
      repoPath: lane.path,
      branch: lane.branch,
      destination: head,
      objects: [path.join(project.path, ".git", "objects")],
    },
    hostOf(engine),
  );
  if (pushed.upToDate) return { kind: "up_to_date", branch: head };
  const now = engine.clock.now();
  await engine.db
    .updateTable("lanes")
    .set({ pushed_remote: pushed.forgeRepo ?? project.remote, pushed_at: now, updated_at: now })
    .where("conversation_id", "=", conversationId)
    .execute();
  await updated(engine, conversationId);
  return { kind: "pushed", branch: head, revision };
}
