import type { Kernel } from "../kernel.js";
import { pauseReasons } from "./dispatcher.js";
import type { PauseReason } from "../kernel.js";
import { backgroundWindowOpen, globalPolicy, type RuntimePolicy } from "../projects/index.js";
import { canSeeConversationId } from "../projects/index.js";
import type { Actor } from "../projects/index.js";

/** The queue as `/codex status` shows it. */
export interface QueueStatus {
  queued: number;
  running: Array<{
    conversationId: string;
    projectName: string;
    title: string;
    activity: string | null;
    startedAt: number | null;
  }>;
  limits: RuntimePolicy;
  host: { loadPercent: number; memoryPercent: number };
  paused: PauseReason[];
  backgroundWindowOpen: boolean;
  now: number;
}

/** Reads the queue, running agents (those whose conversation the actor may see), limits and pause reasons. */
export async function queueStatus(engine: Kernel, actor: Actor): Promise<QueueStatus> {
  const { db, clock, host } = engine;
  const limits = await globalPolicy(db);
  const rows = await db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["q.conversation_id", "q.last_activity", "q.started_at", "c.title", "p.name"])
    .where("q.status", "=", "running")
    .orderBy("q.started_at")
    .execute();
  const { queued } = await db
    .selectFrom("prompt_queue")
    .select((eb) => eb.fn.countAll<number>().as("queued"))
    .where("status", "=", "queued")
    .executeTakeFirstOrThrow();
  const now = clock.now();
  // A conversation's title can be another person's task (a delegation to a shared specialist).
  const visible: typeof rows = [];
  for (const r of rows) if (await canSeeConversationId(db, actor, r.conversation_id)) visible.push(r);
  return {
    queued: Number(queued),
    running: visible.map((r) => ({
      conversationId: r.conversation_id,
      projectName: r.name,
      title: r.title,
      activity: r.last_activity,
      startedAt: r.started_at,
    })),
    limits,
    host: { loadPercent: host.loadPercent(), memoryPercent: host.memoryPercent() },
    paused: pauseReasons(limits, rows.length, host),
    backgroundWindowOpen: backgroundWindowOpen(
      limits.background_start_hour,
      limits.background_end_hour,
      host.localHour(now),
    ),
    now,
  };
}
