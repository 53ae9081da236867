import type { HandBack } from "../files/index.js";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import { failureNote } from "../../i18n/failures.js";
import type { DB, FailureCode } from "../schema.js";
import { statusAfterItem } from "./conversationMachine.js";
import { lockConversation, moveConversation } from "./conversationStore.js";
import { moveItem } from "./queueStore.js";
import { announce } from "../wakeups.js";
import type { RecordAgentOutcome } from "../outcomeHook.js";
import { recordTurnUsage } from "../usage/index.js";
import { projectNameOf, recordAudit } from "../audit/index.js";
import type { GatewayUsage } from "../gateway/index.js";
import type { EgressRefusal } from "../egress/index.js";

/**
 * The error stored when a worker vanished mid-task: a note with no language, which each reader
 * renders in theirs (`failureText`); state machines match the `interrupted` code, never this text.
 */
export const INTERRUPTED_WORKER_REASON = failureNote("worker.interrupted");

/** How a queue item ended, as its worker (or the reaper, or a cancel) saw it. */
export interface Outcome {
  status: "done" | "failed" | "cancelled";
  content: string | null;
  error: string | null;
  errorCode: FailureCode | null;
  usage?: unknown;
  files?: string[];
  /** What the agent left in its outbox (moved out of the workspace): the bot uploads it. */
  handBack?: HandBack;
  /** The tokens the turn's model gateway counted (the count of record when it saw a response). */
  gatewayUsage?: GatewayUsage;
  /** Connections the turn's egress proxy refused: audited, counted, told once in the thread. */
  egressRefused?: EgressRefusal[];
  /** How long the turn waited for a model it could not reach (ms): not work. */
  unreachableMs?: number;
}

/** At most this many refused destinations are named (and audited) per turn; the rest are counted. */
const REFUSALS_TOLD = 10;

/** Each distinct refused destination once, in the order they were first refused. */
function distinctRefusals(refused: readonly EgressRefusal[]): EgressRefusal[] {
  const seen = new Map<string, EgressRefusal>();
  for (const r of refused) {
    const key = `${r.host}:${r.port}`;
    if (!seen.has(key)) seen.set(key, r);
  }
  return [...seen.values()];
}

/**
 * Finishes a running (or queued) item in the caller's transaction: status, the assistant message
 * with `{queue_id, …}`, the conversation's state, the outcome hook and the outbox event, together.
 * The write is fenced on status and attempt, so a late worker cannot overwrite a reaped item.
 * Returns false when the fence did not match (someone else finished it).
 *
 * Needs no global lock (callers pass `{ locks: [] }` on PostgreSQL): the fenced move holds the
 * item's row, then the conversation's row is locked (lockConversation) before the status mirror
 * reads what is still queued, so an enqueue is either seen or comes after. The reactors write
 * under unique indexes (one decision, delegation, incident per item) and guarded moves.
 */
export async function finishItem(
  trx: Kysely<DB>,
  clock: Clock,
  hook: RecordAgentOutcome,
  item: { id: string; attempt: number; fromStatus?: "running" | "queued" },
  outcome: Outcome,
): Promise<boolean> {
  const now = clock.now();
  const row = await trx
    .selectFrom("prompt_queue")
    .select(["conversation_id", "status", "attempt"])
    .where("id", "=", item.id)
    .executeTakeFirst();
  if (!row || row.status !== (item.fromStatus ?? "running") || row.attempt !== item.attempt) return false;
  const moved = await moveItem(
    trx,
    item.id,
    outcome.status,
    {
      error: outcome.error,
      error_code: outcome.errorCode,
      finished_at: now,
      usage: outcome.usage === undefined ? null : JSON.stringify(outcome.usage),
      files_changed: outcome.files?.length ? JSON.stringify(outcome.files) : null,
      unreachable_ms: outcome.unreachableMs === undefined ? null : Math.round(outcome.unreachableMs),
    },
    { from: [row.status], attempt: item.attempt },
  );
  if (!moved) return false;
  // In the finishing transaction: a turn's usage is counted once, whoever finishes it.
  await recordTurnUsage(trx, item.id, outcome.usage, now, outcome.gatewayUsage);
  await lockConversation(trx, row.conversation_id);
  await announce(trx, "finish"); // a slot is free: a dispatcher elsewhere may start the next item

  let messageId: string | null = null;
  if (outcome.status === "done") {
    messageId = newId();
    await trx
      .insertInto("messages")
      .values({
        id: messageId,
        conversation_id: row.conversation_id,
        role: "assistant",
        content: outcome.content ?? "",
        metadata: JSON.stringify({
          queue_id: item.id,
          usage: outcome.usage ?? null,
          files: outcome.files ?? [],
        }),
        queue_id: item.id,
        created_at: now,
      })
      .execute();
  }
  const stillQueued = await trx
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", row.conversation_id)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  const mirror = statusAfterItem(outcome.status, stillQueued !== undefined);
  if (!(await moveConversation(trx, row.conversation_id, mirror, { worker_pid: null, updated_at: now }))) {
    // The mirror cannot go there from where it stands (it already says so): the worker is gone all the same.
    await trx
      .updateTable("conversations")
      .set({ worker_pid: null, updated_at: now })
      .where("id", "=", row.conversation_id)
      .execute();
  }
  // The finished event first: in the thread, the answer comes before the decision it asks.
  await emit(trx, now, {
    kind: "conversation.finished",
    conversationId: row.conversation_id,
    queueId: item.id,
    status: outcome.status,
    errorCode: outcome.errorCode,
    messageId,
  });
  if (outcome.handBack && (outcome.handBack.files.length || outcome.handBack.refused.length))
    await emit(trx, now, {
      kind: "conversation.files",
      conversationId: row.conversation_id,
      queueId: item.id,
      files: outcome.handBack.files,
      refused: outcome.handBack.refused,
    });
  if (outcome.egressRefused?.length)
    await recordRefusals(trx, now, row.conversation_id, item.id, outcome.egressRefused);
  await hook(trx, row.conversation_id, item.id, outcome.status, outcome.content, outcome.error);
  return true;
}

/** The turn's refused connections: an audit row per destination, and one notice for the thread. */
async function recordRefusals(
  trx: Kysely<DB>,
  now: number,
  conversationId: string,
  queueId: string,
  refusals: readonly EgressRefusal[],
): Promise<void> {
  const project = await projectNameOf(trx, conversationId);
  const told = distinctRefusals(refusals).slice(0, REFUSALS_TOLD);
  for (const r of told)
    await recordAudit(trx, now, {
      actor: `agent:${conversationId}`,
      via: "agent",
      action: "egress.refused",
      target: `${r.host}:${r.port}`,
      project,
      outcome: "refused",
      reason: r.reason,
      detail: `queue ${queueId}`,
    });
  await emit(trx, now, {
    kind: "conversation.egress_refused",
    conversationId,
    queueId,
    project: project ?? "",
    refused: told,
  });
}
