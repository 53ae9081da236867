import type { Kernel } from "../kernel.js";
import type { Database } from "../database.js";
import type { Conversation, Project, QueueItem } from "../schema.js";
import { processStartTime } from "../system/index.js";

/** The rows a claimed queue item runs with. */
export interface ClaimedItem {
  item: QueueItem;
  conversation: Conversation;
  project: Project;
}

/**
 * Claims the item for this process: only a running item of this attempt that no other worker holds
 * (PID and start time recorded, so the reaper can tell this process from a recycled PID). Null when
 * the item is no longer ours to run (finished, reaped or re-attempted).
 */
export async function claimItem(
  engine: Pick<Kernel, "db" | "clock">,
  queueId: string,
  attempt: number,
): Promise<ClaimedItem | null> {
  const { db, clock } = engine;
  const claimed = await db
    .updateTable("prompt_queue")
    .set({
      worker_pid: process.pid,
      worker_start_time: processStartTime(process.pid),
      claimed_at: clock.now(),
      steer_turn_id: null, // an earlier attempt's turn is gone: this one marks its own once started
    })
    .where("id", "=", queueId)
    .where("attempt", "=", attempt)
    .where("status", "=", "running")
    .where((eb) => eb.or([eb("worker_pid", "is", null), eb("worker_pid", "=", process.pid)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const item = await db
    .selectFrom("prompt_queue")
    .selectAll()
    .where("id", "=", queueId)
    .executeTakeFirstOrThrow();
  const conversation = await db
    .selectFrom("conversations")
    .selectAll()
    .where("id", "=", item.conversation_id)
    .executeTakeFirstOrThrow();
  const project = await db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", conversation.project_id)
    .executeTakeFirstOrThrow();
  return { item, conversation, project };
}

/** Records the Codex process of an attempt (the reaper checks its PID and start time before signalling). */
export async function recordCodexStart(
  db: Database,
  now: number,
  queueId: string,
  attempt: number,
  pid: number,
  startTime: string | null,
): Promise<void> {
  await db
    .updateTable("prompt_queue")
    .set({ codex_pid: pid, codex_start_time: startTime, codex_started_at: now })
    .where("id", "=", queueId)
    .where("attempt", "=", attempt)
    .execute();
}
