import type { Tx } from "../database.js";

/**
 * The queue's one order rule (higher priority first, then insertion sequence): how many queued
 * items start before an item of this priority and sequence.
 */
export async function itemsAhead(db: Tx, item: { priority: number; seq: number }): Promise<number> {
  const { n } = await db
    .selectFrom("prompt_queue")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "queued")
    .where((eb) =>
      eb.or([
        eb("priority", ">", item.priority),
        eb.and([eb("priority", "=", item.priority), eb("seq", "<", item.seq)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** An item's place in the queue (1: it starts next); null once it has started (or does not exist). */
export async function queuePosition(db: Tx, queueId: string): Promise<number | null> {
  const item = await db
    .selectFrom("prompt_queue")
    .select(["status", "priority", "seq"])
    .where("id", "=", queueId)
    .executeTakeFirst();
  if (item?.status !== "queued") return null;
  return (await itemsAhead(db, item)) + 1;
}

/** Queued and running items (health). */
export async function queueCounts(db: Tx): Promise<{ queued: number; running: number }> {
  const counts = await db
    .selectFrom("prompt_queue")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["queued", "running"])
    .groupBy("status")
    .execute();
  return {
    queued: Number(counts.find((c) => c.status === "queued")?.n ?? 0),
    running: Number(counts.find((c) => c.status === "running")?.n ?? 0),
  };
}

/**
 * Whether a queued item is a person's follow-up that had to wait for its own conversation: an
 * earlier item of the conversation was still queued or running when it was queued (decision
 * answers and specialist results are the engine's, not written in the thread). Read from the items'
 * times, so that a replayed event gets the same answer.
 */
export async function waitedForItsConversation(db: Tx, queueId: string): Promise<boolean> {
  const item = await db
    .selectFrom("prompt_queue")
    .select(["conversation_id", "seq", "created_at", "origin_kind"])
    .where("id", "=", queueId)
    .executeTakeFirst();
  if (item?.origin_kind !== "user") return false;
  const earlier = await db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", item.conversation_id)
    .where("seq", "<", item.seq)
    .where((eb) => eb.or([eb("finished_at", "is", null), eb("finished_at", ">", item.created_at)]))
    .executeTakeFirst();
  return earlier !== undefined;
}

/**
 * When a turn last completed after `after` (a model answered), or null: the health endpoint's
 * proof that the model works when no probe says so. Any completed turn will do (the index on
 * status finds one without reading the others).
 */
/**
 * When the newest of the last `count` finished turns (done or failed, in queue order) failed, if
 * each of them failed for `failedFor` (its stored error): a run of failures with one cause, told
 * by the finish time of its newest. Null when fewer turns finished, or one of them did otherwise.
 */
export async function failureRunEnd(
  db: Tx,
  count: number,
  failedFor: (error: string | null) => boolean,
): Promise<number | null> {
  // Newest first along the seq index: stops after `count` finished items.
  const rows = await db
    .selectFrom("prompt_queue")
    .select(["status", "error", "finished_at"])
    .where("status", "in", ["done", "failed"])
    .orderBy("seq", "desc")
    .limit(count)
    .execute();
  if (rows.length < count || !rows.every((r) => r.status === "failed" && failedFor(r.error))) return null;
  return Math.max(...rows.map((r) => r.finished_at ?? 0));
}

export async function turnCompletedSince(db: Tx, after: number): Promise<number | null> {
  const row = await db
    .selectFrom("prompt_queue")
    .select("finished_at")
    .where("status", "=", "done")
    .where("finished_at", ">", after)
    .limit(1)
    .executeTakeFirst();
  return row?.finished_at ?? null;
}
