import type { Kysely } from "kysely";
import type { DB } from "../schema.js";

/** Everything a view of a conversation's state needs, read at once (the current state, not an event's). */
export interface ConversationSnapshot {
  conversationId: string;
  projectName: string;
  userId: string | null;
  prompt: string;
  channelId: string | null;
  threadTs: string | null;
  statusTs: string | null;
  origin: string | null;
  status: "queued" | "running" | "done" | "failed" | "cancelled";
  activity: string | null;
  position: number | null;
  error: string | null;
  errorCode: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  queueId: string | null;
  /** Whether a decision the agent asked still waits for its answer (Stop would cancel it). */
  decisionOpen: boolean;
}

/** Reads a conversation's current state, from its latest queue item. */
export async function conversationSnapshot(db: Kysely<DB>, conversationId: string): Promise<ConversationSnapshot | null> {
  const c = await db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["c.id", "c.title", "c.user_id", "c.slack_channel_id", "c.slack_thread_ts", "c.slack_status_ts", "c.slack_origin", "p.name as project_name"])
    .where("c.id", "=", conversationId)
    .executeTakeFirst();
  if (!c) return null;
  const first = await db
    .selectFrom("messages")
    .select("content")
    .where("conversation_id", "=", conversationId)
    .where("role", "=", "user")
    .orderBy("created_at", "asc")
    .limit(1)
    .executeTakeFirst();
  // The item that describes the conversation now: a running one, else the latest.
  const item =
    (await db.selectFrom("prompt_queue").selectAll().where("conversation_id", "=", conversationId).where("status", "=", "running").executeTakeFirst()) ??
    (await db.selectFrom("prompt_queue").selectAll().where("conversation_id", "=", conversationId).orderBy("seq", "desc").limit(1).executeTakeFirst());
  let position: number | null = null;
  if (item?.status === "queued") {
    const ahead = await db
      .selectFrom("prompt_queue")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "queued")
      .where((eb) => eb.or([eb("priority", ">", item.priority), eb.and([eb("priority", "=", item.priority), eb("seq", "<", item.seq)])]))
      .executeTakeFirstOrThrow();
    position = Number(ahead.n) + 1;
  }
  // Through the conversation's items: decisions are indexed by the item that asked them.
  const decision = await db
    .selectFrom("decisions")
    .select("id")
    .where("queue_id", "in", (eb) => eb.selectFrom("prompt_queue").select("id").where("conversation_id", "=", conversationId))
    .where("status", "=", "OPEN")
    .limit(1)
    .executeTakeFirst();
  return {
    conversationId,
    projectName: c.project_name,
    userId: c.user_id,
    prompt: first?.content ?? c.title,
    channelId: c.slack_channel_id,
    threadTs: c.slack_thread_ts,
    statusTs: c.slack_status_ts,
    origin: c.slack_origin,
    status: item?.status ?? "queued",
    activity: item?.last_activity ?? null,
    position,
    error: item?.error ?? null,
    errorCode: item?.error_code ?? null,
    startedAt: item?.started_at ?? null,
    finishedAt: item?.finished_at ?? null,
    queueId: item?.id ?? null,
    decisionOpen: decision !== undefined,
  };
}
