import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { conversationRights, type Actor } from "../projects/index.js";
import { laneOf } from "./lane.js";
import type { Lane, LaneStatus } from "./schema.js";
import { conversationBusy, endLane } from "./sweep.js";

// The lanes' use cases (EngineApi `lanes`): what a person may know of a conversation's lane, and
// Discard. Who may: reading follows the conversation's visibility; discarding is for the
// conversation's person, its project's owner and admins (`conversationRights(...).prompt`).

/** What the bot and the CLI see of a lane: never where it is on disk. */
export interface LaneView {
  conversationId: string;
  projectId: string;
  branch: string;
  /** The project's branch it started from (null: the project's HEAD was detached). */
  baseBranch: string | null;
  baseCommit: string;
  status: LaneStatus;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

const viewOf = (lane: Lane): LaneView => ({
  conversationId: lane.conversation_id,
  projectId: lane.project_id,
  branch: lane.branch,
  baseBranch: lane.base_branch,
  baseCommit: lane.base_commit,
  status: lane.status,
  createdAt: lane.created_at,
  updatedAt: lane.updated_at,
  finishedAt: lane.finished_at,
});

/** The rights of `actor` on the conversation; not_found when it does not exist or is hidden from them. */
async function rightsOn(db: Kernel["db"], actor: Actor, conversationId: string) {
  const row = await db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select([
      "c.id",
      "c.user_id",
      "p.id as project_id",
      "p.owner_id",
      "p.execution_group",
      "p.visibility",
      "p.channel_id",
      "p.thread_prompters",
    ])
    .where("c.id", "=", conversationId)
    .executeTakeFirst();
  const rights = row
    ? await conversationRights(db, actor, {
        conversation: { id: row.id, user_id: row.user_id },
        project: { ...row, id: row.project_id },
      })
    : null;
  if (!rights?.see) throw new EngineError("not_found", "conversation_not_found", { name: conversationId });
  return rights;
}

/** The lane of a conversation the actor may read (null when it has none). */
export async function laneOfConversation(
  engine: Pick<Kernel, "db">,
  actor: Actor,
  conversationId: string,
): Promise<LaneView | null> {
  await rightsOn(engine.db, actor, conversationId);
  const lane = await laneOf(engine.db, conversationId);
  return lane ? viewOf(lane) : null;
}

/**
 * Discards a conversation's lane (its person, its project's owner, an admin): the clone and its
 * branch are removed and the row marked `discarded`. Refused while the conversation has an agent
 * at work or waiting in the lane (it would lose its directory mid-turn). Discarding a lane that is
 * already finished answers it as it is.
 */
export async function discardLane(
  engine: Pick<Kernel, "db" | "clock">,
  actor: Actor,
  conversationId: string,
): Promise<LaneView> {
  const rights = await rightsOn(engine.db, actor, conversationId);
  if (!rights.prompt) throw new EngineError("forbidden", "not_allowed_to_drive");
  const lane = await laneOf(engine.db, conversationId);
  if (!lane) throw new EngineError("not_found", "lane_not_found");
  if (lane.status !== "active") return viewOf(lane);
  if (await conversationBusy(engine.db, conversationId))
    throw new EngineError("conflict", "lane_busy", { name: conversationId });
  await endLane(engine, lane, "discarded");
  const ended = await laneOf(engine.db, conversationId);
  return viewOf(ended ?? lane);
}
