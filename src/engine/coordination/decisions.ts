import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { writeTransaction, type Database } from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import { recordAgentAudit } from "../audit/index.js";
import type { DB, DecisionsTable } from "../schema.js";
import type { Actor } from "../projects/index.js";
import { canSeeConversationId, mayAnswer } from "../projects/index.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import { enqueueIn } from "../conversations/index.js";
import type { DecisionOption } from "../protocol/index.js";
import { t, type Locale } from "../../i18n/index.js";
import { canDecision } from "./decisionMachine.js";
import { moveDecision } from "./decisionStore.js";
import { moveDelegation } from "./coordinationStore.js";
import { withEffects, type Kernel, type Outcome } from "../kernel.js";
import { announce } from "../wakeups.js";
import { assertChargeable } from "../usage/index.js";

/** A decision as people and views see it. */
export interface DecisionView {
  id: string;
  conversation_id: string;
  queue_id: string;
  user_id: string | null;
  title: string;
  question: string;
  options: DecisionOption[];
  allow_multiple: boolean;
  allow_custom: boolean;
  status: DecisionsTable["status"];
  answer: { option_ids: string[]; custom: string } | null;
  /** Who answered (an admin may answer someone else's decision); null while open. */
  answered_by?: string | null;
  response_queue_id: string | null;
  created_at: number;
  project_name: string;
}

const view = (d: DecisionsTable & { project_name: string }): DecisionView => ({
  id: d.id,
  conversation_id: d.conversation_id,
  queue_id: d.queue_id,
  user_id: d.user_id,
  title: d.title,
  question: d.question,
  options: JSON.parse(d.options) as DecisionOption[],
  allow_multiple: d.allow_multiple === 1,
  allow_custom: d.allow_custom === 1,
  status: d.status,
  answer: d.answer ? (JSON.parse(d.answer) as DecisionView["answer"]) : null,
  answered_by: d.answered_by,
  response_queue_id: d.response_queue_id,
  created_at: d.created_at,
  project_name: d.project_name,
});

/** Decisions with the name of the project they were asked in. */
const decisionsWithProject = (db: Kysely<DB>) =>
  db
    .selectFrom("decisions as d")
    .innerJoin("conversations as c", "c.id", "d.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .selectAll("d")
    .select(["p.name as project_name", "p.thread_prompters"]);

/**
 * Who answers a conversation's decisions: the person at the root of the chain. Specialist, run
 * and orchestration conversations are created with that person as their user; the delegation
 * chain is followed only for rows that lack one.
 */
export async function rootUserOf(trx: Kysely<DB>, conversationId: string): Promise<string | null> {
  let id = conversationId;
  for (let hop = 0; hop < 8; hop++) {
    const c = await trx.selectFrom("conversations").select("user_id").where("id", "=", id).executeTakeFirst();
    if (c?.user_id) return c.user_id;
    const d = await trx
      .selectFrom("specialist_delegations")
      .select("source_conversation_id")
      .where("specialist_conversation_id", "=", id)
      .executeTakeFirst();
    if (!d) return null;
    id = d.source_conversation_id;
  }
  return null;
}

/** Outcome hook: a CODEXPI_DECISION opens a decision (once per queue item) for the root user. */
export const openDecisionReactor: OutcomeReactor = async (trx, o, clock) => {
  const request = o.status === "done" ? o.markers.decision : null;
  if (!request) return;
  const now = clock.now();
  const id = newId();
  const inserted = await trx
    .insertInto("decisions")
    .values({
      id,
      conversation_id: o.conversationId,
      queue_id: o.queueId,
      user_id: await rootUserOf(trx, o.conversationId),
      title: request.title,
      question: request.question,
      options: JSON.stringify(request.options),
      allow_multiple: request.allow_multiple ? 1 : 0,
      allow_custom: request.allow_custom ? 1 : 0,
      status: "OPEN",
      answer: null,
      answered_by: null,
      response_queue_id: null,
      created_at: now,
      answered_at: null,
    })
    .onConflict((oc) => oc.column("queue_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return; // recorded before
  // A specialist asking its user waits for the answer, like a delegation waits for a child.
  await moveDelegation(trx, { specialistConversationId: o.conversationId }, "WAITING_CHILD", {
    updated_at: now,
  });
  await emit(
    trx,
    now,
    { kind: "decision.opened", conversationId: o.conversationId, decisionId: id },
    { kind: "decision.reminder", conversationId: o.conversationId, decisionId: id },
  );
  await recordAgentAudit(trx, now, o.conversationId, {
    action: "decision.ask",
    target: `decision:${id}`,
    detail: request.title,
  });
};

/**
 * The open (or all) decisions a user has to answer: theirs, in a conversation they can still see
 * (a shared specialist's question may quote the task it was delegated).
 */
export async function listDecisions(
  db: Kysely<DB>,
  actor: Actor,
  opts: { all?: boolean } = {},
): Promise<DecisionView[]> {
  let q = decisionsWithProject(db).orderBy("d.created_at", "desc");
  if (!opts.all) q = q.where("d.status", "=", "OPEN");
  if (!actor.isAdmin) q = q.where("d.user_id", "=", actor.userId);
  const rows = await q.limit(200).execute();
  const shown: DecisionView[] = [];
  for (const d of rows) if (await canSeeConversationId(db, actor, d.conversation_id)) shown.push(view(d));
  return shown;
}

/** The decision a queue item's answer asked, whatever its state; null when it asked none. */
export async function decisionOfItem(db: Kysely<DB>, queueId: string): Promise<DecisionView | null> {
  const d = await decisionsWithProject(db).where("d.queue_id", "=", queueId).executeTakeFirst();
  return d ? view(d) : null;
}

/** One decision the actor may see (theirs, in a conversation they can see), or not_found. */
export async function getDecision(db: Kysely<DB>, actor: Actor, id: string): Promise<DecisionView> {
  const d = await decisionsWithProject(db).where("d.id", "=", id).executeTakeFirst();
  if (d && (await mayAnswer(db, actor, "decision", d.conversation_id, d.user_id))) return view(d);
  // Someone who sees the conversation is told who answers; anyone else, as if it did not exist.
  if (d && (await canSeeConversationId(db, actor, d.conversation_id)))
    throw new EngineError("forbidden", "decision_reserved", {
      person: d.user_id ?? "",
      project: d.project_name,
      // Where the thread is the team's, its prompters answer too: the refusal says so.
      thread_prompters: d.thread_prompters,
    });
  throw new EngineError("not_found", "decision_not_found", { name: id });
}

/** An answer as one line of plain text: the chosen labels, then the free text. */
function answerLine(d: Pick<DecisionView, "options" | "answer">): string {
  if (!d.answer) return "";
  const labels = d.answer.option_ids.map((id) => d.options.find((o) => o.id === id)?.label ?? id);
  return [labels.join(", "), d.answer.custom.trim()].filter(Boolean).join(" — ");
}

/**
 * Why a decision that is no longer open cannot be answered: it was cancelled, or it has its
 * answer, and then who gave it and what (the late clicker may not be the one who answered).
 */
const closed = (
  d: Pick<DecisionView, "status" | "title" | "options" | "answer" | "answered_by">,
): EngineError =>
  d.status === "CANCELLED"
    ? new EngineError("conflict", "decision_cancelled", { title: d.title })
    : new EngineError("conflict", "decision_answered", {
        title: d.title,
        person: d.answered_by ?? "?",
        answer: answerLine(d) || "—",
      });

/** Throws the conflict a person reads when the decision no longer takes an answer (answered or cancelled). */
export function assertAnswerable(
  d: Pick<DecisionView, "status" | "title" | "options" | "answer" | "answered_by">,
): void {
  if (!canDecision(d.status, "answer")) throw closed(d);
}

/**
 * Answers a decision: ANSWERED once (a second answer is refused), the answer queued in the **same
 * conversation** (same Codex thread) as a `decision_answer`, and a specialist waiting on it resumes.
 */
export async function answerDecision(
  db: Database,
  clock: Clock,
  locale: Locale,
  actor: Actor,
  decisionId: string,
  optionIds: string[],
  custom: string,
): Promise<DecisionView> {
  // Global lock (PostgreSQL): a person's answer: check, guarded move, queued answer; rare.
  return writeTransaction(db, async (trx) => {
    const d = await getDecision(trx, actor, decisionId);
    assertAnswerable(d);
    const chosen = d.options.filter((o) => optionIds.includes(o.id));
    const text = custom.trim();
    if (chosen.length !== new Set(optionIds).size)
      throw new EngineError("invalid", "decision_option_unknown");
    if (chosen.length > 1 && !d.allow_multiple) throw new EngineError("invalid", "decision_one_option");
    if (text && !d.allow_custom) throw new EngineError("invalid", "decision_no_custom");
    if (chosen.length === 0 && !text) throw new EngineError("invalid", "decision_empty_answer");
    const now = clock.now();
    const answer = answerLine({
      options: d.options,
      answer: { option_ids: chosen.map((o) => o.id), custom: text },
    });
    const prompt = t(locale, "prompt.decision_answer", { title: d.title, question: d.question, answer });
    const response = await enqueueIn(trx, clock, d.conversation_id, prompt, {
      origin: "decision_answer",
      requestedBy: actor.userId,
    });
    const answered = {
      answer: JSON.stringify({ option_ids: chosen.map((o) => o.id), custom: text }),
      answered_by: actor.userId,
      response_queue_id: response.id,
      answered_at: now,
    };
    // Moved by someone else since it was read (answered, or cancelled by a stop): the transaction rolls back.
    if (!(await moveDecision(trx, d.id, "ANSWERED", answered)))
      throw closed(await getDecision(trx, actor, d.id));
    await moveDelegation(
      trx,
      { specialistConversationId: d.conversation_id },
      "RUNNING",
      { queue_id: response.id, updated_at: now },
      ["WAITING_CHILD"],
    );
    await emit(trx, now, { kind: "decision.answered", conversationId: d.conversation_id, decisionId: d.id });
    await announce(trx, "answers", d.id);
    return getDecision(trx, actor, d.id);
  });
}

/** The answer as a use case: committed, with its queued answer to dispatch as the effect. */
export async function answerDecisionUseCase(
  kernel: Pick<Kernel, "db" | "clock" | "config">,
  actor: Actor,
  decisionId: string,
  optionIds: string[],
  custom: string,
): Promise<Outcome<DecisionView>> {
  const { db, clock, config } = kernel;
  // The answer resumes the agent with a turn charged to the person answering (its `requestedBy`):
  // their budgets and the project's are checked first, as for a follow-up in the thread.
  const d = await getDecision(db, actor, decisionId);
  assertAnswerable(d); // a closed decision says so, whatever the budgets
  const c = await db
    .selectFrom("conversations")
    .select("project_id")
    .where("id", "=", d.conversation_id)
    .executeTakeFirstOrThrow();
  await assertChargeable(kernel, c.project_id, actor.userId);
  // Relayed in the answering person's language: the agent tends to answer in the language it is spoken to.
  const locale = actor.locale ?? config.locale;
  const answered = await answerDecision(db, clock, locale, actor, decisionId, optionIds, custom);
  return withEffects(answered, { dispatch: true });
}
