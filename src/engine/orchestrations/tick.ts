import { performEffects, type Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import {
  defaultDeps,
  prepareClaimMs,
  runCancel,
  runMerge,
  runPrepare,
  type OrchestrationDeps,
} from "./effects.js";
import { findOrchestration, transition, withEndedAgent, withExpiredClaim } from "./store.js";
import { failureNote } from "../../i18n/failures.js";
import { canOrchestration, type ORCHESTRATION_ACTIONS } from "./machine.js";

/**
 * Moves an AGENT_RUNNING orchestration on once its agent is done with the conversation: the
 * conversation's latest item decides (a decision answer or a follow-up may have been queued after
 * the first), and a done item that asked a person a decision waits for the answer. One guarded
 * transaction: however many reads and ticks race, `agent.finished` is recorded once.
 */
export async function advanceAgent(engine: Kernel, id: string): Promise<boolean> {
  // Reads are frequent and mostly of other states: the write lock is taken only when it may move.
  const current = await engine.db
    .selectFrom("orchestrations")
    .select("status")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!current || !canOrchestration(current.status, "agent_finished")) return false;
  // Global lock (PostgreSQL): reads the agent's items, then moves the orchestration; taken only when it may move.
  return writeTransaction(engine.db, async (trx) => {
    const o = await trx
      .selectFrom("orchestrations")
      .select(["id", "status", "conversation_id", "queue_id"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!o || !canOrchestration(o.status, "agent_finished") || !o.conversation_id) return false;
    const live = await trx
      .selectFrom("prompt_queue")
      .select(["id"])
      .where("conversation_id", "=", o.conversation_id)
      .where("status", "in", ["queued", "running"])
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    if (live) {
      if (live.id !== o.queue_id)
        await trx
          .updateTable("orchestrations")
          .set({ queue_id: live.id })
          .where("id", "=", id)
          .where("status", "=", "AGENT_RUNNING")
          .execute();
      return false;
    }
    const item = o.queue_id
      ? await trx
          .selectFrom("prompt_queue")
          .select(["id", "status", "error", "error_code"])
          .where("id", "=", o.queue_id)
          .executeTakeFirst()
      : undefined;
    if (!item) return false;
    const now = engine.clock.now();
    if (item.status === "done") {
      const waiting = await trx
        .selectFrom("decisions")
        .select("id")
        .where("queue_id", "=", item.id)
        .where("status", "=", "OPEN")
        .executeTakeFirst();
      if (waiting) return false;
      const answer = await trx
        .selectFrom("messages")
        .select("content")
        .where("queue_id", "=", item.id)
        .where("role", "=", "assistant")
        .executeTakeFirst();
      // Whole: the thread view splits a long answer across messages, never cuts it.
      const moved = await transition(trx, now, o, "agent_finished", {
        event: { kind: "agent.finished", queueId: item.id, detail: { answer: answer?.content ?? "" } },
      });
      return moved !== null;
    }
    const moved = await transition(trx, now, o, "agent_failed", {
      // The item's failure as stored (a note has no language): views render it for their reader.
      set: { last_error: item.error ?? item.status },
      event: {
        kind: "agent.failed",
        queueId: item.id,
        detail: { status: item.status, error: item.error, error_code: item.error_code },
      },
    });
    return moved !== null;
  });
}

/** The statuses a step taken over re-enters (`resume`), and the step each one runs again. */
type ResumedStatus = (typeof ORCHESTRATION_ACTIONS.resume)[number];
const RESUMED_STEPS = {
  PREPARING: runPrepare,
  MERGING: runMerge,
  CANCELLING: runCancel,
} as const satisfies Record<ResumedStatus, typeof runPrepare>;

/**
 * Takes over a step whose claim expired (its process died or hung): git steps run again (they
 * are idempotent); an interrupted verification goes back to AWAITING_VERIFICATION, because tests
 * may take minutes and the person decides when to run them again.
 */
async function recoverClaim(engine: Kernel, deps: OrchestrationDeps, id: string): Promise<boolean> {
  const o = await findOrchestration(engine.db, id);
  if (!o?.claim_token || (o.claim_expires_at ?? Infinity) >= engine.clock.now()) return false;
  const expired = o.claim_token;
  const now = engine.clock.now();
  if (canOrchestration(o.status, "verification_interrupted")) {
    const error = failureNote("orch.verification_interrupted");
    // Global lock (PostgreSQL): recovery of an expired claim, rare.
    const moved = await writeTransaction(engine.db, (trx) =>
      transition(trx, now, o, "verification_interrupted", {
        claimToken: expired,
        set: { last_error: error },
        event: { kind: "verification.interrupted" },
      }),
    );
    return moved !== null;
  }
  // Global lock (PostgreSQL): recovery of an expired claim, rare.
  const taken = await writeTransaction(engine.db, (trx) =>
    transition(trx, now, o, "resume", {
      claimToken: expired,
      ...(o.status === "PREPARING" ? { claimMs: prepareClaimMs(engine.config) } : {}),
      event: { kind: "step.resumed", detail: { status: o.status } },
    }),
  );
  if (!taken?.claimToken) return false;
  // `resume` moved it, so its status is one of those the action allows.
  const step = RESUMED_STEPS[o.status as ResumedStatus];
  const result = await step(engine, deps, id, taken.claimToken);
  if (result.ok === true && result.effects) await performEffects(engine, result.effects);
  return true;
}

/** Tick step: agents that finished move on; expired claims are taken over. */
export async function processOrchestrations(
  engine: Kernel,
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<{ orchestrations_advanced: number; orchestrations_recovered: number }> {
  let advanced = 0;
  let recovered = 0;
  for (const { id } of await withEndedAgent(engine.db)) if (await advanceAgent(engine, id)) advanced += 1;
  for (const { id } of await withExpiredClaim(engine.db, engine.clock.now())) {
    try {
      if (await recoverClaim(engine, deps, id)) recovered += 1;
    } catch (err) {
      engine.logger.child({ orchestrationId: id }).error({ err }, "orchestration step recovery failed");
    }
  }
  return { orchestrations_advanced: advanced, orchestrations_recovered: recovered };
}
