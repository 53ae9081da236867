import type { Kernel } from "../kernel.js";
import type { Project } from "../schema.js";
import { unusableWorkdir } from "../workspaces/index.js";
import { ensureSelfClone } from "../workspaces/index.js";
import { deliverInbox } from "../conversations/index.js";
import { ensureLane } from "../lanes/index.js";
import { SPECIALIST_GROUP } from "../projects/index.js";
import { SetupFailed } from "../setup/index.js";
import type {} from "./schema.js"; // the orchestrations tables

/** The project fields that decide where its conversations' agents work. */
type WorkdirProject = Pick<
  Project,
  | "id"
  | "name"
  | "path"
  | "role"
  | "workspace_mode"
  | "execution_group"
  | "setup_command"
  | "network_mode"
  | "network_hosts"
>;

/**
 * Where the agent of a conversation works (the worker's hook): an orchestration's conversation in
 * its clone, never in the project's main checkout, which only the merge touches; a conversation
 * of the self project (self-repairs) in its own clone of codexpi's source, never in the running
 * install; a conversation of a `branch`-mode project in its lane (engine/lanes: made at its
 * first turn, reused by every later one); any other conversation in its project's directory. Null when the clone is missing or
 * cannot be made: the item must then fail, never fall back to the main checkout; throws
 * SetupFailed when a new lane's setup failed. The
 * conversation's inbox is delivered there first. The dispatcher reads the same rule
 * (`holdsCheckout`, projects/checkoutRule.ts) to let one agent at a time into a direct project's
 * checkout: a change here is a change there.
 */
export async function agentWorkdir(
  engine: Pick<Kernel, "db" | "config" | "logger" | "clock">,
  conversationId: string,
  project: WorkdirProject,
): Promise<string | null> {
  const dir = await workdirOf(engine, conversationId, project);
  if (!dir) return null;
  // The whole texts its prompts name (see inbox.ts) must be there before the agent reads them.
  try {
    deliverInbox(engine.config.dataDir, conversationId, dir);
  } catch (err) {
    engine.logger.error(
      { err, conversationId, dir },
      "the conversation's inbox could not be delivered; the item fails",
    );
    return null;
  }
  return dir;
}

async function workdirOf(
  engine: Pick<Kernel, "db" | "config" | "logger" | "clock">,
  conversationId: string,
  project: WorkdirProject,
): Promise<string | null> {
  const o = await engine.db
    .selectFrom("orchestrations")
    .select("worktree_path")
    .where("conversation_id", "=", conversationId)
    .executeTakeFirst();
  if (o) {
    const why = o.worktree_path ? unusableWorkdir(o.worktree_path) : "no clone recorded";
    if (why)
      engine.logger.error(
        { conversationId, why },
        "the orchestration's clone cannot be used; the item fails",
      );
    return why ? null : o.worktree_path;
  }
  if (project.role !== "self") return laneOrCheckout(engine, conversationId, project);
  try {
    return await ensureSelfClone(engine.config, conversationId, project.path);
  } catch (err) {
    engine.logger.error(
      { err, conversationId, selfPath: project.path },
      "the self project's clone could not be made; the item fails",
    );
    return null;
  }
}

/**
 * A branch-mode project's conversation works in its lane (a specialist's workspace is codexpi's
 * own directory for it, no person's checkout: it has none); any other in the project's checkout.
 */
async function laneOrCheckout(
  engine: Pick<Kernel, "db" | "config" | "logger" | "clock">,
  conversationId: string,
  project: WorkdirProject,
): Promise<string | null> {
  if (project.workspace_mode !== "branch" || project.execution_group === SPECIALIST_GROUP)
    return project.path;
  try {
    const conversation = await engine.db
      .selectFrom("conversations")
      .select(["id", "title", "base_branch"])
      .where("id", "=", conversationId)
      .executeTakeFirstOrThrow();
    // The person's `branch=` (checked when asked) is the lane's base when the lane is made: at
    // its first turn, and again should the conversation go on after its lane ended.
    return await ensureLane(engine, { conversation, project, baseBranch: conversation.base_branch });
  } catch (err) {
    // A failed setup is the turn's cause, told with its (redacted) log tail: the caller says it.
    if (err instanceof SetupFailed) throw err;
    engine.logger.error({ err, conversationId }, "the conversation's lane could not be made; the item fails");
    return null;
  }
}
