import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import { utcDay } from "./periods.js";
import "./schema.js";

/** Token counts as Codex names them in `turn.completed.usage` (running totals for the thread). */
export interface Tokens {
  input: number;
  cached: number;
  output: number;
}

const count = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;

/** The token counts of a Codex `usage` value, or null when it holds none. */
function tokensOfUsage(usage: unknown): Tokens | null {
  if (!usage || typeof usage !== "object") return null;
  const u = usage as Record<string, unknown>;
  const t = {
    input: count(u.input_tokens),
    cached: count(u.cached_input_tokens),
    output: count(u.output_tokens),
  };
  return t.input + t.output > 0 ? t : null;
}

/**
 * This turn's share of a thread's running totals. Every real turn sends the model at least one
 * request, so its totals grow in input; totals that do not (a new thread, a runner that reports
 * per turn) are this turn's own.
 */
export function turnShare(totals: Tokens, previous: Tokens | null): Tokens {
  if (!previous) return totals;
  const grew =
    totals.input > previous.input && totals.cached >= previous.cached && totals.output >= previous.output;
  if (!grew) return totals;
  return {
    input: totals.input - previous.input,
    cached: totals.cached - previous.cached,
    output: totals.output - previous.output,
  };
}

/**
 * Records a finished turn's usage in the transaction that finishes its item (so that a turn is
 * counted exactly once, whoever finishes it). Turns that reported no usage are not recorded.
 */
export async function recordTurnUsage(
  trx: Kysely<DB>,
  queueId: string,
  usage: unknown,
  now: number,
  gateway?: { input: number; cached: number; output: number; responses: number },
): Promise<void> {
  // The gateway saw every response of the turn: its figures are the model's own, Codex's are not
  // needed (nor trusted, should an agent ever shape them).
  const counted = gateway && gateway.responses > 0 ? gateway : null;
  const reported = tokensOfUsage(usage);
  if (!counted && !reported) return;
  const item = await trx
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .select([
      "q.conversation_id",
      "q.requested_by",
      "q.codex_started_at",
      "q.started_at",
      "q.claimed_at",
      "c.project_id",
      "c.user_id",
      "c.model",
    ])
    .where("q.id", "=", queueId)
    .executeTakeFirst();
  if (!item) return;
  const prev = await trx
    .selectFrom("turn_usage")
    .select(["total_input_tokens", "total_cached_input_tokens", "total_output_tokens"])
    .where("conversation_id", "=", item.conversation_id)
    .orderBy("finished_at", "desc")
    .orderBy("queue_id", "desc")
    .executeTakeFirst();
  const previous = prev
    ? {
        input: prev.total_input_tokens,
        cached: prev.total_cached_input_tokens,
        output: prev.total_output_tokens,
      }
    : null;
  const share = counted
    ? { input: counted.input, cached: counted.cached, output: counted.output }
    : turnShare(reported as Tokens, previous);
  // The thread's running totals: Codex's own when it reported them, else the sum of the turns.
  const totals = reported ?? {
    input: (previous?.input ?? 0) + share.input,
    cached: (previous?.cached ?? 0) + share.cached,
    output: (previous?.output ?? 0) + share.output,
  };
  const startedAt = item.codex_started_at ?? item.started_at ?? item.claimed_at ?? now;
  await trx
    .insertInto("turn_usage")
    .values({
      queue_id: queueId,
      conversation_id: item.conversation_id,
      project_id: item.project_id,
      person: item.requested_by ?? item.user_id,
      model: item.model,
      input_tokens: share.input,
      cached_input_tokens: share.cached,
      output_tokens: share.output,
      total_input_tokens: totals.input,
      total_cached_input_tokens: totals.cached,
      total_output_tokens: totals.output,
      agent_ms: Math.max(0, now - startedAt),
      day: utcDay(now),
      finished_at: now,
    })
    .onConflict((oc) => oc.column("queue_id").doNothing())
    .execute();
}
