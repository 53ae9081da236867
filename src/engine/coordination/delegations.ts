import type { Kysely } from "kysely";
import { performEffects, type Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import { recordAgentAudit } from "../audit/index.js";
import type { DB, SpecialistDelegationsTable } from "../schema.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import { answerOf, createConversation, enqueueIn } from "../conversations/index.js";
import { budgetRefusalIn, chargeeOf, overBudgetText } from "../usage/index.js";
import { t, type Locale } from "../../i18n/index.js";
import type { Clock } from "../clock.js";
import { rootUserOf } from "./decisions.js";
import { quote } from "../text/index.js";
import { passText, type TextCtx } from "../conversations/index.js";
import { failureText } from "../../i18n/failures.js";
import { moveDelegation } from "./coordinationStore.js";

/** How deep specialists may call specialists. */
const MAX_DELEGATION_DEPTH = 3;

/**
 * Outcome hook: a CODEXPI_SPECIALIST_CALL creates a PENDING delegation (once per queue item). When
 * the caller is itself a specialist working on a delegation, that delegation waits for its child.
 */
export function specialistCallReactor(locale: Locale): OutcomeReactor {
  return async (trx, o, clock) => {
    const call = o.status === "done" ? o.markers.specialistCall : null;
    if (!call) return;
    const now = clock.now();
    const caller = await trx
      .selectFrom("specialist_delegations")
      .selectAll()
      .where("specialist_conversation_id", "=", o.conversationId)
      .where("status", "=", "RUNNING")
      .executeTakeFirst();
    const depth = (caller?.depth ?? 0) + 1;
    const id = newId();
    const tooDeep = depth > MAX_DELEGATION_DEPTH;
    const inserted = await trx
      .insertInto("specialist_delegations")
      .values({
        id,
        source_conversation_id: o.conversationId,
        source_queue_id: o.queueId,
        parent_delegation_id: caller?.id ?? null,
        specialist_id: null,
        capability: call.capability,
        task: call.task,
        context: call.context,
        depth,
        status: tooDeep ? "FAILED" : "PENDING",
        specialist_conversation_id: null,
        queue_id: null,
        result: null,
        error: tooDeep ? t(locale, "delegation.too_deep", { max: MAX_DELEGATION_DEPTH }) : null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("source_queue_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await recordAgentAudit(trx, now, o.conversationId, {
      action: "delegation.create",
      target: `delegation:${id}`,
      detail: `${call.capability}: ${call.task}`,
    });
    if (tooDeep) {
      // The caller hears at once that nobody will take the task (and keeps running).
      await enqueueIn(
        trx,
        clock,
        o.conversationId,
        t(locale, "prompt.delegation_failed", {
          capability: call.capability,
          task: call.task,
          error: quote(t(locale, "delegation.too_deep", { max: MAX_DELEGATION_DEPTH })),
        }),
        { origin: "specialist_result", delegationDepth: depth },
      );
      return;
    }
    if (caller) await moveDelegation(trx, { id: caller.id }, "WAITING_CHILD", { updated_at: now });
    await emit(trx, now, { kind: "delegation.updated", delegationId: id, status: "PENDING" });
  };
}

/**
 * Tick step: starts PENDING delegations in a new conversation of a matching ACTIVE specialist
 * (the root user's own first, then shared ones), and delivers finished ones: to the parent
 * delegation, which resumes in its own conversation, or to the source conversation as a
 * `specialist_result`. Every transition is guarded, so a second tick changes nothing.
 */
export async function processDelegations(
  engine: Kernel,
): Promise<{ delegations_started: number; delegations_finished: number }> {
  const { db, clock } = engine;
  const text: TextCtx = { locale: engine.config.locale, dataDir: engine.config.dataDir };
  let finished = 0;
  let started = 0;
  const running = await db
    .selectFrom("specialist_delegations as d")
    .innerJoin("prompt_queue as q", "q.id", "d.queue_id")
    .selectAll("d")
    .select(["q.status as queue_status", "q.error as queue_error"])
    .where("d.status", "=", "RUNNING")
    .where("q.status", "in", ["done", "failed", "cancelled"])
    .execute();
  for (const d of running) {
    const answer =
      d.queue_status === "done" ? ((await answerOf(db, d.queue_id as string))?.content ?? "") : null;
    // Global lock (PostgreSQL): delegation steps read the tree (parent, depth) then move it; a tick step.
    const ok = await writeTransaction(db, (trx) => finish(trx, clock, text, d, answer, d.queue_error));
    if (ok) finished += 1;
  }
  const pending = await db
    .selectFrom("specialist_delegations")
    .selectAll()
    .where("status", "=", "PENDING")
    .orderBy("created_at")
    .limit(20)
    .execute();
  for (const d of pending) {
    // Global lock (PostgreSQL): picks a specialist and creates its conversation after reading the tree; a tick step.
    const ok = await writeTransaction(db, (trx) => start(trx, engine, text, d));
    if (ok) started += 1;
  }
  await performEffects(engine, { dispatch: started + finished > 0 });
  return { delegations_started: started, delegations_finished: finished };
}

async function start(
  trx: Kysely<DB>,
  engine: Kernel,
  text: TextCtx,
  d: SpecialistDelegationsTable,
): Promise<boolean> {
  const { clock } = engine;
  const locale = text.locale;
  const now = clock.now();
  const user = await rootUserOf(trx, d.source_conversation_id);
  const candidates = await trx
    .selectFrom("specialist_agents")
    .selectAll()
    .where("status", "=", "ACTIVE")
    .orderBy("created_at")
    .execute();
  const able = candidates.filter(
    (s) =>
      (JSON.parse(s.capabilities) as string[]).includes(d.capability) &&
      (s.owner_id === null || s.owner_id === user),
  );
  const specialist = able.find((s) => s.owner_id === user) ?? able[0];
  // The specialist's turn is charged to the person at the root of the delegation, in the
  // specialist's project: over budget the delegation fails with the reason, delivered as any failure.
  const refusal = specialist
    ? await budgetRefusalIn(trx, engine, await chargeeOf(trx, specialist.project_id, user))
    : null;
  if (!specialist || refusal) {
    const error = refusal
      ? overBudgetText(locale, refusal)
      : t(locale, "delegation.no_specialist", { capability: d.capability });
    if ((await moveDelegation(trx, { id: d.id }, "FAILED", { error, updated_at: now }, ["PENDING"])) !== 1)
      return false;
    await deliver(trx, clock, text, d, null, error);
    return true;
  }
  const conversation = await createConversation(trx, clock, specialist.project_id, d.task, user);
  const prompt = t(locale, "prompt.delegation", {
    name: specialist.name,
    capability: d.capability,
    task: d.task,
    context: d.context ? quote(passText(text, conversation.id, d.context)) : "—",
  });
  const item = await enqueueIn(trx, clock, conversation.id, prompt, {
    origin: "delegation",
    delegationDepth: d.depth,
    requestedBy: user,
  });
  const startedIt = await moveDelegation(
    trx,
    { id: d.id },
    "RUNNING",
    {
      specialist_id: specialist.id,
      specialist_conversation_id: conversation.id,
      queue_id: item.id,
      updated_at: now,
    },
    ["PENDING"],
  );
  if (startedIt !== 1) throw new Error("delegation changed while starting"); // rolls the conversation back
  await emit(trx, now, { kind: "delegation.updated", delegationId: d.id, status: "RUNNING" });
  return true;
}

async function finish(
  trx: Kysely<DB>,
  clock: Clock,
  text: TextCtx,
  d: SpecialistDelegationsTable,
  answer: string | null,
  error: string | null,
): Promise<boolean> {
  const now = clock.now();
  const status = answer !== null ? "COMPLETED" : "FAILED";
  const ended = await moveDelegation(
    trx,
    { id: d.id, queueId: d.queue_id },
    status,
    { result: answer, error: answer === null ? (error ?? "") : null, updated_at: now },
    ["RUNNING"],
  );
  if (ended !== 1) return false;
  await deliver(trx, clock, text, d, answer, error);
  await emit(trx, now, { kind: "delegation.updated", delegationId: d.id, status });
  return true;
}

/** Hands a result (or a failure) back: to the waiting parent in its own conversation, else to the source. */
async function deliver(
  trx: Kysely<DB>,
  clock: Clock,
  text: TextCtx,
  d: SpecialistDelegationsTable,
  answer: string | null,
  error: string | null,
): Promise<void> {
  const parent = d.parent_delegation_id
    ? await trx
        .selectFrom("specialist_delegations")
        .selectAll()
        .where("id", "=", d.parent_delegation_id)
        .where("status", "=", "WAITING_CHILD")
        .executeTakeFirst()
    : undefined;
  // The receiving conversation's inbox holds the whole result when the prompt has to cut it.
  const receiver = parent?.specialist_conversation_id ?? d.source_conversation_id;
  const prompt =
    answer !== null
      ? t(text.locale, "prompt.delegation_result", {
          capability: d.capability,
          task: d.task,
          result: quote(passText(text, receiver, answer)),
        })
      : t(text.locale, "prompt.delegation_failed", {
          capability: d.capability,
          task: d.task,
          error: quote(passText(text, receiver, failureText(text.locale, error) ?? "?")),
        });
  if (parent?.specialist_conversation_id) {
    const item = await enqueueIn(trx, clock, parent.specialist_conversation_id, prompt, {
      origin: "specialist_result",
      delegationDepth: parent.depth,
    });
    await moveDelegation(trx, { id: parent.id }, "RUNNING", { queue_id: item.id, updated_at: clock.now() }, [
      "WAITING_CHILD",
    ]);
    return;
  }
  await enqueueIn(trx, clock, d.source_conversation_id, prompt, {
    origin: "specialist_result",
    delegationDepth: Math.max(0, d.depth - 1),
  });
}
