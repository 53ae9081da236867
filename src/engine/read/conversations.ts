import type { Tx } from "../database.js";
import { itemsAhead } from "../conversations/index.js";
import { parseProgress, tokensOf, type Progress } from "../conversations/index.js";

/**
 * A conversation as a view shows it: its current state (from its latest queue item, never an
 * event's). Where it was asked from and where it shows are the front end's own business.
 */
export interface ConversationView {
  conversationId: string;
  projectName: string;
  userId: string | null;
  prompt: string;
  status: "queued" | "running" | "done" | "failed" | "cancelled";
  /** Plain activity text of rows written before progress was structured; null otherwise. */
  activity: string | null;
  /** What the agent does now (the running item's stored progress). */
  progress: Progress | null;
  /** Tokens the conversation used so far (Codex counts a thread's running total), once known. */
  tokens: number | null;
  /** How long its agent worked, all turns together (finished turns; the running one is `startedAt`). */
  workedMs: number;
  position: number | null;
  error: string | null;
  errorCode: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  queueId: string | null;
  /** Stop was pressed and the running turn is being stopped (its end follows). */
  stopping: boolean;
  /** Whether a decision the agent asked still waits for its answer (Stop would cancel it). */
  decisionOpen: boolean;
  /** The decision that waits, if any (its question is linked from the state message). */
  decisionId: string | null;
  /** The approval the running turn waits for, if any (its card is linked from the state message). */
  approvalPending: boolean;
  approvalId: string | null;
  /** The request's options (`model=`, `effort=`, `branch=`); null each where the default runs. */
  options: { model: string | null; effort: string | null; branch: string | null };
}

/** Reads a conversation's current state; null when it does not exist. */
export async function conversationView(db: Tx, conversationId: string): Promise<ConversationView | null> {
  const c = await db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select([
      "c.id",
      "c.title",
      "c.user_id",
      "c.model",
      "c.effort",
      "c.base_branch",
      "p.name as project_name",
    ])
    .where("c.id", "=", conversationId)
    .executeTakeFirst();
  if (!c) return null;
  const first = await firstPrompt(db, conversationId);
  const item = await currentItem(db, conversationId);
  const decision = await openDecision(db, conversationId);
  // Only the running turn's own request pauses it (a closed or older one is history).
  const approval = item?.status === "running" ? await pendingApproval(db, item.id) : undefined;
  const progress = parseProgress(item?.last_activity);
  const totals = await conversationTotals(db, conversationId);
  return {
    conversationId,
    projectName: c.project_name,
    userId: c.user_id,
    prompt: first?.content ?? c.title,
    status: item?.status === undefined || item.status === "steered" ? "queued" : item.status,
    activity: progress ? null : (item?.last_activity ?? null),
    progress,
    tokens: totals.tokens ?? tokensOf(parseJson(item?.usage)),
    workedMs: totals.workedMs,
    position: item?.status === "queued" ? (await itemsAhead(db, item)) + 1 : null,
    error: item?.error ?? null,
    errorCode: item?.error_code ?? null,
    startedAt: item?.started_at ?? null,
    finishedAt: item?.finished_at ?? null,
    queueId: item?.id ?? null,
    stopping: item?.status === "running" && item.cancel_requested_at != null,
    decisionOpen: decision !== undefined,
    decisionId: decision?.id ?? null,
    approvalPending: approval !== undefined,
    approvalId: approval?.id ?? null,
    options: { model: c.model, effort: c.effort, branch: c.base_branch },
  };
}

/**
 * What all the conversation's turns add up to: the time its agent worked (each finished turn's
 * start to end, less the time it waited for a model it could not reach; not the time people took
 * between turns) and the tokens used — Codex's usage is
 * the thread's running total, so the largest is the conversation's (a failed last turn has none).
 */
async function conversationTotals(db: Tx, conversationId: string) {
  const rows = await db
    .selectFrom("prompt_queue")
    .select(["started_at", "finished_at", "usage", "unreachable_ms"])
    .where("conversation_id", "=", conversationId)
    .where("status", "<>", "steered")
    .execute();
  let workedMs = 0;
  let tokens: number | null = null;
  for (const r of rows) {
    if (r.started_at != null && r.finished_at != null)
      workedMs += Math.max(0, r.finished_at - r.started_at - (r.unreachable_ms ?? 0));
    const used = tokensOf(parseJson(r.usage));
    if (used !== null && (tokens === null || used > tokens)) tokens = used;
  }
  return { workedMs, tokens };
}

/** The conversation's first message from a person: what it was asked. */
function firstPrompt(db: Tx, conversationId: string) {
  return db
    .selectFrom("messages")
    .select("content")
    .where("conversation_id", "=", conversationId)
    .where("role", "=", "user")
    .orderBy("created_at", "asc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * The item that describes the conversation now: a running one, else the latest (a follow-up
 * steered into a turn never ran on its own: that turn's item describes it).
 */
async function currentItem(db: Tx, conversationId: string) {
  return (
    (await db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("status", "=", "running")
      .executeTakeFirst()) ??
    (await db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("status", "<>", "steered")
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst())
  );
}

/** An open decision the conversation's agent asked, if any. */
function openDecision(db: Tx, conversationId: string) {
  // Through the conversation's items: decisions are indexed by the item that asked them.
  return db
    .selectFrom("decisions")
    .select("id")
    .where("queue_id", "in", (eb) =>
      eb.selectFrom("prompt_queue").select("id").where("conversation_id", "=", conversationId),
    )
    .where("status", "=", "OPEN")
    .limit(1)
    .executeTakeFirst();
}

/** The oldest approval this item's turn still waits for, if any. */
function pendingApproval(db: Tx, queueId: string) {
  return db
    .selectFrom("approvals")
    .select("id")
    .where("queue_id", "=", queueId)
    .where("status", "=", "pending")
    .orderBy("created_at")
    .limit(1)
    .executeTakeFirst();
}

const parseJson = (text: string | null | undefined): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The text of an agent's answer (a message of the conversation); null when there is none. */
export async function answerText(db: Tx, messageId: string): Promise<string | null> {
  const row = await db
    .selectFrom("messages")
    .select("content")
    .where("id", "=", messageId)
    .executeTakeFirst();
  return row?.content ?? null;
}

/**
 * Why a turn failed (its error text and code) and how long it ran (null before its end); null
 * when the item does not exist.
 */
export async function turnFailure(
  db: Tx,
  queueId: string,
): Promise<{ error: string | null; errorCode: string | null; ranMs: number | null } | null> {
  const row = await db
    .selectFrom("prompt_queue")
    .select(["error", "error_code", "started_at", "finished_at"])
    .where("id", "=", queueId)
    .executeTakeFirst();
  if (!row) return null;
  const ranMs =
    row.started_at != null && row.finished_at != null ? Math.max(0, row.finished_at - row.started_at) : null;
  return { error: row.error, errorCode: row.error_code, ranMs };
}
