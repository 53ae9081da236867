import type { Database } from "../database.js";
import type { QueueItem } from "../schema.js";

/** Polls a queue item until it is finished or `timeoutMs` passes (then returns it as it is). */
export async function waitForItem(
  db: Database,
  queueId: string,
  timeoutMs: number,
  pollMs = 100,
): Promise<QueueItem> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = await db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", queueId)
      .executeTakeFirstOrThrow();
    if (!["queued", "running"].includes(item.status) || Date.now() >= deadline) return item;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
