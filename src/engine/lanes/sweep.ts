import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../kernel.js";
import { removeClone } from "../workspaces/index.js";
import type { LaneStatus } from "./schema.js";

// Issue 18: lanes are kept until their work left (a merge), a person discarded them, or they sat
// unused longer than the retention period (CODEXPI_LANE_RETENTION_DAYS, default 14 days). A lane
// whose conversation still has an agent at work or waiting for a person is never removed.

/** Whether the conversation has work queued or running, or an agent waiting for an answer. */
export async function conversationBusy(db: Kernel["db"], conversationId: string): Promise<boolean> {
  const item = await db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  if (item) return true;
  const decision = await db
    .selectFrom("decisions")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .where("status", "=", "OPEN")
    .executeTakeFirst();
  if (decision) return true;
  const approval = await db
    .selectFrom("approvals")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return approval !== undefined;
}

/**
 * Ends a lane: removes its clone and seal (never following a link out of it), then marks the row.
 * In that order, so that a crash in between leaves an `active` row whose clone is made again at
 * the next turn, or is removed by the next sweep, never a finished row with a clone left behind
 * that nothing would remove. The branch lived in the clone only: what was not merged or pushed
 * goes with it.
 */
export async function endLane(
  engine: Pick<Kernel, "db" | "clock">,
  lane: { conversation_id: string; path: string },
  status: Exclude<LaneStatus, "active">,
): Promise<void> {
  removeClone(lane.path);
  const now = engine.clock.now();
  await engine.db
    .updateTable("lanes")
    .set({ status, finished_at: now, updated_at: now })
    .where("conversation_id", "=", lane.conversation_id)
    .execute();
}

/**
 * The retention sweep (a tick step): expires the active lanes unused for longer than the
 * retention period whose conversation is not busy, and removes the directories under
 * `<data dir>/lanes/` that no active lane owns and that are that old too (the leftovers of a
 * creation cut short whose conversation never came back). Answers how many lanes it expired.
 */
export async function sweepLanes(
  engine: Pick<Kernel, "db" | "clock" | "config" | "logger">,
): Promise<number> {
  const cutoff = engine.clock.now() - engine.config.laneRetentionMs;
  const old = await engine.db
    .selectFrom("lanes")
    .select(["conversation_id", "path"])
    .where("status", "=", "active")
    .where("updated_at", "<", cutoff)
    .execute();
  let expired = 0;
  for (const lane of old) {
    if (await conversationBusy(engine.db, lane.conversation_id)) continue;
    await endLane(engine, lane, "expired");
    expired += 1;
  }
  const leftovers = await removeLeftovers(engine, cutoff);
  if (expired || leftovers) engine.logger.info({ expired, leftovers }, "old lanes removed");
  return expired;
}

/** Directories under `<data dir>/lanes/<project>/` no active lane owns, last changed before `cutoff`. */
async function removeLeftovers(engine: Pick<Kernel, "db" | "config">, cutoff: number): Promise<number> {
  const root = path.join(engine.config.dataDir, "lanes");
  const active = new Set(
    (await engine.db.selectFrom("lanes").select("path").where("status", "=", "active").execute()).map(
      (r) => r.path,
    ),
  );
  let removed = 0;
  for (const project of dirsIn(root)) {
    for (const name of dirsIn(path.join(root, project))) {
      const dir = path.join(root, project, name);
      if (active.has(dir)) continue;
      const st = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!st || st.mtimeMs >= cutoff) continue;
      removeClone(dir);
      removed += 1;
    }
  }
  return removed;
}

function dirsIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}
