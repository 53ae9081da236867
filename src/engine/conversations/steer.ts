import type { Clock } from "../clock.js";
import { writeTransaction, type Database, type Tx } from "../database.js";
import { emit } from "../outbox.js";
import { CLI_ACTOR } from "../projects/index.js";
import { lockConversation } from "./conversationStore.js";
import { moveItem } from "./queueStore.js";

// Steering (issue 10): a person's follow-up written while their conversation's turn runs on the
// app-server runner, in a project that allows it, is sent into that turn (`turn/steer`) instead of
// waiting for the next one. The follow-up is recorded first like any other (queue item and message
// row); the worker, which holds the turn, picks it up within a poll, steers it, then marks it
// `steered` in one guarded move. A follow-up the turn never took (it ended first, the call failed)
// stays queued and runs as the next turn, as it would have without steering.

/** How long the notifier holds a steerable follow-up's acknowledgement waiting for the worker. */
const STEER_ACK_WAIT_MS = 5_000;

/** A follow-up the running turn may take. */
export interface SteerableFollowUp {
  id: string;
  content: string;
  /** The Slack context given with it (JSON), quoted into what the turn is sent. */
  thread_context: string | null;
  /** Its writer's name when the agent is told who wrote it, who wrote it, and who started the conversation. */
  writer_name: string | null;
  requested_by: string | null;
  author: string | null;
}

/**
 * Records on the running item whether its turn can be steered now (the app-server turn's id), or
 * no longer (null). Fenced on the attempt: a late worker of an earlier attempt changes nothing.
 */
export async function markSteerable(
  db: Database,
  item: { id: string; attempt: number },
  turnId: string | null,
): Promise<void> {
  await db
    .updateTable("prompt_queue")
    .set({ steer_turn_id: turnId })
    .where("id", "=", item.id)
    .where("attempt", "=", item.attempt)
    .where("status", "=", "running")
    .execute();
}

/**
 * The follow-ups the running item's turn may take, oldest first: people's prompts written in the
 * thread (never the engine's: decision answers, specialist results; nor the CLI's, whose
 * `ask --conversation --wait` waits for its own turn's answer) queued in the same conversation,
 * while its project allows steering. Read at each poll, so that turning steering off stops it.
 */
export async function steerableFollowUps(
  db: Tx,
  running: { id: string; conversationId: string },
): Promise<SteerableFollowUp[]> {
  return (
    db
      .selectFrom("prompt_queue as q")
      .innerJoin("conversations as c", "c.id", "q.conversation_id")
      .innerJoin("projects as p", "p.id", "c.project_id")
      .select([
        "q.id",
        "q.content",
        "q.thread_context",
        "q.writer_name",
        "q.requested_by",
        "c.user_id as author",
      ])
      .where("q.conversation_id", "=", running.conversationId)
      .where("q.status", "=", "queued")
      // A follow-up with files waits for its own turn: a steer carries text only.
      .where("q.attachments", "is", null)
      .where("q.origin_kind", "=", "user")
      .where("q.requested_by", "is not", null)
      .where("q.requested_by", "<>", CLI_ACTOR.userId)
      .where("q.id", "<>", running.id)
      .where("p.steer", "=", 1)
      .orderBy("q.seq")
      .execute()
  );
}

/**
 * Marks a follow-up as taken by the running item's turn: one guarded move out of `queued` with
 * its `conversation.steered` event. False when it was no longer queued (a stop cancelled it).
 */
export async function markSteered(
  db: Database,
  clock: Clock,
  followUp: { id: string; conversationId: string },
  intoQueueId: string,
): Promise<boolean> {
  return writeTransaction(
    db,
    async (trx) => {
      const now = clock.now();
      const moved = await moveItem(
        trx,
        followUp.id,
        "steered",
        { steered_into: intoQueueId, started_at: now, finished_at: now },
        { from: ["queued"] },
      );
      if (!moved) return false;
      await lockConversation(trx, followUp.conversationId); // item row, then conversation (events in order)
      await emit(trx, now, {
        kind: "conversation.steered",
        conversationId: followUp.conversationId,
        queueId: followUp.id,
      });
      return true;
    },
    { locks: [] },
  ); // a guarded move, then the conversation's row
}

/** What became of a person's follow-up, as its acknowledgement says it. */
export type FollowUpFate = "steered" | "steering" | "queued";

/**
 * Whether a follow-up was sent into the running turn (`steered`), is about to be (`steering`: the
 * turn can take it and the worker has not polled yet, for at most STEER_ACK_WAIT_MS), or waits
 * for its turn like any other (`queued`, also once it started or ended).
 */
export async function followUpFate(db: Tx, queueId: string, now: number): Promise<FollowUpFate> {
  const item = await db
    .selectFrom("prompt_queue")
    .select(["id", "status", "conversation_id", "created_at"])
    .where("id", "=", queueId)
    .executeTakeFirst();
  if (item?.status === "steered") return "steered";
  if (item?.status !== "queued" || now - item.created_at > STEER_ACK_WAIT_MS) return "queued";
  const steerable = await db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", item.conversation_id)
    .where("status", "=", "running")
    .where("steer_turn_id", "is not", null)
    .executeTakeFirst();
  if (!steerable) return "queued";
  const mine = await steerableFollowUps(db, { id: steerable.id, conversationId: item.conversation_id });
  return mine.some((f) => f.id === item.id) ? "steering" : "queued";
}
