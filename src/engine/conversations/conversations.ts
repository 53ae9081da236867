import { type Attachment, attachmentsColumn } from "../files/index.js";
import { sql, type Kysely } from "kysely";
import type { Clock } from "../clock.js";
import {
  dialectOf,
  uniqueViolationOf,
  writeTransaction,
  type Database,
  type OnCreated,
} from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import type { Conversation, DB, Project, QueueItem } from "../schema.js";
import { priorityOf, type OriginKind } from "./priorities.js";
import { ENQUEUE_FROM } from "./conversationMachine.js";
import { itemsAhead } from "./queueReads.js";
import { lockConversation, moveConversation } from "./conversationStore.js";
import { announce } from "../wakeups.js";
import type { RequestOptions } from "./requestOptions.js";
import type { ThreadContext } from "../threadContext/index.js";

/** A new conversation's options, and the standing instructions it starts with (a channel's). */
type StartOptions = RequestOptions & { instructions?: string | null; place?: string | null };

/** Creates a conversation in a project, for a user. */
export async function createConversation(
  db: Kysely<DB>,
  clock: Clock,
  projectId: string,
  title: string,
  userId: string | null,
  options: StartOptions | null = null,
): Promise<Conversation> {
  const now = clock.now();
  const row = {
    id: newId(),
    project_id: projectId,
    title: title.length > 200 ? `${title.slice(0, 199)}…` : title, // a label: the whole prompt is the item's
    user_id: userId,
    status: "idle" as const,
    worker_pid: null,
    codex_thread_id: null,
    created_at: now,
    updated_at: now,
    model: options?.model ?? null,
    effort: options?.effort ?? null,
    base_branch: options?.branch ?? null,
    instructions: options?.instructions ?? null,
    place: options?.place ?? null,
  };
  await db.insertInto("conversations").values(row).execute();
  return row;
}

/** Reads one conversation or throws not_found. */
export async function getConversation(db: Kysely<DB>, id: string): Promise<Conversation> {
  const c = await db.selectFrom("conversations").selectAll().where("id", "=", id).executeTakeFirst();
  if (!c) throw new EngineError("not_found", "conversation_not_found", { name: id });
  return c;
}

/** Options of one enqueue. */
export interface EnqueueOptions {
  origin?: OriginKind;
  requestedBy?: string | null;
  delegationDepth?: number;
  /**
   * The request the prompt comes from (a Slack request key): a second enqueue with the same key
   * queues nothing and returns the first item, so a request replayed after its consumer died
   * half-way (src/bot/intake) is answered once.
   */
  requestKey?: string | null;
  /** Slack context given with the prompt, already within its budget (engine/threadContext). */
  context?: ThreadContext | null;
  /** The files shared with the prompt, staged by the front end (issue 19). */
  attachments?: readonly Attachment[];
  /** The writer's display name, when the agent is to be told who wrote the prompt (withWriter). */
  writerName?: string | null;
}

/** The item queued earlier for `requestKey`, if any. */
export async function itemOfRequest(
  trx: Kysely<DB>,
  requestKey: string | null | undefined,
): Promise<QueueItem | null> {
  if (!requestKey) return null;
  return (
    (await trx
      .selectFrom("prompt_queue")
      .selectAll()
      .where("request_key", "=", requestKey)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Queues a prompt on a conversation, inside the caller's write transaction. The sequence number:
 * on SQLite `max(seq) + 1` inside the file's write lock; on PostgreSQL the `prompt_queue_seq`
 * sequence (migration 0016), taken while the conversation's row is locked, so that within one
 * conversation seqs follow commit order (FIFO) across processes. Across conversations a seq only
 * orders by when it was taken: any order is fair there.
 */
export async function enqueueIn(
  trx: Kysely<DB>,
  clock: Clock,
  conversationId: string,
  content: string,
  opts: EnqueueOptions = {},
): Promise<QueueItem> {
  return (await queueIn(trx, clock, conversationId, content, opts)).item;
}

/**
 * `enqueueIn`, saying whether the request's item was there already (`duplicate`). On PostgreSQL
 * (READ COMMITTED) each statement reads a fresh snapshot: a twin that committed after the
 * caller's own check is seen here, and the caller must not treat its item as one it queued.
 */
async function queueIn(
  trx: Kysely<DB>,
  clock: Clock,
  conversationId: string,
  content: string,
  opts: EnqueueOptions,
): Promise<{ item: QueueItem; duplicate: boolean }> {
  if (!content.trim()) throw new EngineError("invalid", "prompt_empty");
  const earlier = await itemOfRequest(trx, opts.requestKey);
  if (earlier) return { item: earlier, duplicate: true };
  const origin = opts.origin ?? "user";
  const now = clock.now();
  await lockConversation(trx, conversationId);
  const next = await nextSeq(trx);
  const row: QueueItem = {
    id: newId(),
    seq: next,
    conversation_id: conversationId,
    content,
    status: "queued",
    error: null,
    error_code: null,
    requested_by: opts.requestedBy ?? null,
    created_at: now,
    started_at: null,
    finished_at: null,
    priority: priorityOf(origin),
    delegation_depth: opts.delegationDepth ?? 0,
    origin_kind: origin,
    slot_acquired_at: null,
    attempt: 0,
    worker_pid: null,
    worker_start_time: null,
    claimed_at: null,
    codex_pid: null,
    codex_start_time: null,
    codex_started_at: null,
    cancel_requested_at: null,
    last_activity: null,
    last_activity_at: null,
    usage: null,
    files_changed: null,
    steer_turn_id: null,
    steered_into: null,
    request_key: opts.requestKey ?? null,
    thread_context: opts.context ? JSON.stringify(opts.context) : null,
    attachments: attachmentsColumn(opts.attachments),
    writer_name: opts.writerName ?? null,
    unreachable_ms: null,
  };
  await trx.insertInto("prompt_queue").values(row).execute();
  await announce(trx, "enqueue");
  await trx
    .insertInto("messages")
    .values({
      id: newId(),
      conversation_id: conversationId,
      role: "user",
      content,
      metadata: JSON.stringify({ queue_id: row.id, origin_kind: origin, requested_by: row.requested_by }),
      queue_id: row.id,
      created_at: now,
    })
    .execute();
  // A running conversation stays running: its mirror moves to queued when that item ends.
  await moveConversation(trx, conversationId, "queued", { updated_at: now }, ENQUEUE_FROM);
  // The one queue rule (read/queue.ts) — the same count the listener and the state message show.
  await emit(trx, now, {
    kind: "conversation.queued",
    conversationId,
    queueId: row.id,
    position: await itemsAhead(trx, row),
  });
  return { item: row, duplicate: false };
}

/** The next queue sequence number (see enqueueIn). */
async function nextSeq(trx: Kysely<DB>): Promise<number> {
  if (dialectOf(trx) === "postgres") {
    const { rows } = await sql<{ next: number }>`select nextval('prompt_queue_seq') as next`.execute(trx);
    return Number(rows[0]?.next);
  }
  const { next } = await trx
    .selectFrom("prompt_queue")
    .select(sql<number>`coalesce(max(seq), 0) + 1`.as("next"))
    .executeTakeFirstOrThrow();
  return next;
}

/**
 * Queues a prompt in its own write transaction. On PostgreSQL it takes no advisory lock: the
 * conversation's row lock and the sequence are all it needs (see enqueueIn).
 */
export async function enqueue(
  db: Database,
  clock: Clock,
  conversationId: string,
  content: string,
  opts: EnqueueOptions = {},
): Promise<QueueItem> {
  return (await enqueueOnce(db, clock, conversationId, content, opts)).item;
}

/**
 * Like `enqueue`, and says whether the request's prompt was queued before (`duplicate`): by an
 * earlier delivery of the same request, or by a twin that won a race (see `queuedByTwin`).
 */
export async function enqueueOnce(
  db: Database,
  clock: Clock,
  conversationId: string,
  content: string,
  opts: EnqueueOptions = {},
): Promise<{ item: QueueItem; duplicate: boolean }> {
  try {
    return await writeTransaction(
      db,
      async (trx) => {
        return queueIn(trx, clock, conversationId, content, opts);
      },
      { locks: [] },
    );
  } catch (err) {
    const earlier = await queuedByTwin(db, err, opts.requestKey);
    if (!earlier) throw err;
    return { item: earlier, duplicate: true };
  }
}

/**
 * The item a twin request queued while ours was in flight. On PostgreSQL these writes take no
 * global lock, so two processes (two `serve`, or the `app_mention` and `message` deliveries of
 * one Slack message) may both find no item for the key and both insert: the unique index on
 * `prompt_queue.request_key` (migration 0015) refuses the second, whose whole transaction (a new
 * conversation with it) is rolled back; it then answers the first's item. Null for any other error.
 */
async function queuedByTwin(
  db: Database,
  err: unknown,
  requestKey: string | null | undefined,
): Promise<QueueItem | null> {
  const violated = uniqueViolationOf(err);
  if (!requestKey || violated === null || !violated.includes("request_key")) return null;
  return itemOfRequest(db, requestKey);
}

/** Thrown to roll back a new conversation whose request a twin queued first (see startConversation). */
class QueuedByTwin extends Error {
  constructor(readonly item: QueueItem) {
    super("queued by a twin request");
  }
}

/**
 * Starts a conversation in a project and queues its first prompt, atomically. No advisory lock on
 * PostgreSQL: the conversation is new (its row is this transaction's own), the seq a sequence's.
 * `onCreated` writes the front end's own rows for it in the same transaction; a replayed request
 * (its key already queued, or queued by a twin that won a race) creates nothing, records nothing
 * again, and is answered `duplicate`.
 */
export async function startConversation(
  db: Database,
  clock: Clock,
  project: Project,
  prompt: string,
  userId: string | null,
  opts: EnqueueOptions & { title?: string; onCreated?: OnCreated; options?: StartOptions } = {},
): Promise<{ conversation: Conversation; item: QueueItem; duplicate: boolean }> {
  try {
    return await startConversationIn(db, clock, project, prompt, userId, opts);
  } catch (err) {
    const earlier = err instanceof QueuedByTwin ? err.item : await queuedByTwin(db, err, opts.requestKey);
    if (!earlier) throw err;
    return {
      conversation: await getConversation(db, earlier.conversation_id),
      item: earlier,
      duplicate: true,
    };
  }
}

async function startConversationIn(
  db: Database,
  clock: Clock,
  project: Project,
  prompt: string,
  userId: string | null,
  opts: EnqueueOptions & { title?: string; onCreated?: OnCreated; options?: StartOptions },
): Promise<{ conversation: Conversation; item: QueueItem; duplicate: boolean }> {
  return writeTransaction(
    db,
    async (trx) => {
      const earlier = await itemOfRequest(trx, opts.requestKey);
      if (earlier)
        return {
          conversation: await getConversation(trx, earlier.conversation_id),
          item: earlier,
          duplicate: true,
        };
      const conversation = await createConversation(
        trx,
        clock,
        project.id,
        opts.title ?? firstLine(prompt),
        userId,
        opts.options,
      );
      await opts.onCreated?.(trx, conversation.id);
      const queued = await queueIn(trx, clock, conversation.id, prompt, { requestedBy: userId, ...opts });
      // A twin committed between our check and the insert: our new conversation (and the front
      // end's rows for it) must not stay behind without a prompt. Roll it all back.
      if (queued.duplicate) throw new QueuedByTwin(queued.item);
      return { conversation, item: queued.item, duplicate: false };
    },
    { locks: [] },
  );
}

/** The final assistant message written for a queue item, if any. */
export async function answerOf(db: Kysely<DB>, queueId: string) {
  return db
    .selectFrom("messages")
    .selectAll()
    .where("queue_id", "=", queueId)
    .where("role", "=", "assistant")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
