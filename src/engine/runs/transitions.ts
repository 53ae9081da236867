import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DB } from "../schema.js";
import { emit } from "../outbox.js";
import { answerOf, createConversation, enqueueIn } from "../conversations/index.js";
import type { Supervision } from "../protocol/index.js";
import { t } from "../../i18n/index.js";
import { passText, type TextCtx } from "../conversations/index.js";
import {
  inferBlockedStage,
  resumePoint,
  STEP_ACTIONS,
  stepStatusAt,
  type RunAction,
  type WorkStage,
} from "./machine.js";
import {
  correctionPrompt,
  finalReviewPrompt,
  planReviewPrompt,
  resumeStepPrompt,
  reviewPrompt,
  reviewRestartPrompt,
  stepPrompt,
  type StepWithProject,
} from "./prompts.js";
import { announce, itemState, moveRun, moveStep, mustMove, recordEvent } from "./store.js";
import type { RunRow } from "./schema.js";

// The transitions of a running or resuming run, carried out inside the caller's transaction:
// each one moves the run and its step under guards, queues the next prompt, and records the
// run's event and the outbox event together.

/** What transitions need from the engine (`dataDir`: where long texts for agents are kept, see inbox.ts). */
export interface RunCtx extends TextCtx {
  clock: Clock;
  /** Whom a budget reached by the run's next turn alerts (once per budget and period). */
  admins: readonly string[];
}

const queue = (trx: Kysely<DB>, ctx: RunCtx, run: RunRow, conversationId: string, prompt: string) =>
  enqueueIn(trx, ctx.clock, conversationId, prompt, { origin: "run_stage", requestedBy: run.owner_id });

/** The step the run is on (its current step id), if any. */
const currentStep = (run: RunRow, steps: readonly StepWithProject[]) =>
  steps.find((s) => s.step_id === run.current_step_id);

/** Records a master's verdict: in the run's history and, for Slack, in the run's thread. */
async function verdictEvent(
  trx: Kysely<DB>,
  now: number,
  run: RunRow,
  stepId: string | null,
  v: Supervision | null,
): Promise<void> {
  if (!v) return;
  await recordEvent(trx, now, run.id, stepId, "master.verdict", {
    stage: run.stage,
    decision: v.decision,
    feedback: v.feedback,
  });
  await emit(trx, now, {
    kind: "run.verdict",
    runId: run.id,
    stepId,
    decision: v.decision,
    feedback: v.feedback,
  });
}

/** Carries out a running run's transition (all but `block`, which repair.ts owns, and `wait`). */
export async function applyAction(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  steps: StepWithProject[],
  action: ApplicableAction,
): Promise<void> {
  const move: Move = {
    trx,
    ctx,
    run,
    steps,
    now: ctx.clock.now(),
    step: currentStep(run, steps),
    masterConversation: run.master_conversation_id as string,
  };
  await carryOut(action.kind, action, move);
}

type ApplicableAction = Exclude<RunAction, { kind: "block" | "wait" }>;
type ActionOfKind = { [A in ApplicableAction as A["kind"]]: A };

/** What every transition works on: the transaction, the run, its steps and the step it is on. */
interface Move {
  trx: Kysely<DB>;
  ctx: RunCtx;
  run: RunRow;
  steps: StepWithProject[];
  now: number;
  step: StepWithProject | undefined;
  masterConversation: string;
}

// One function per action; the mapped type makes an action without one a compile error.
const TRANSITIONS: { [K in keyof ActionOfKind]: (move: Move, action: ActionOfKind[K]) => Promise<void> } = {
  start_next_step: startNextStep,
  request_review: requestReview,
  request_correction: requestCorrection,
  final_review: finalReview,
  complete,
  restart_review: restartReview,
};

function carryOut<K extends keyof ActionOfKind>(kind: K, action: ActionOfKind[K], move: Move): Promise<void> {
  return TRANSITIONS[kind](move, action);
}

/** The master approved the plan or a step: the next pending step starts in its project. */
async function startNextStep(move: Move, action: ActionOfKind["start_next_step"]): Promise<void> {
  const { trx, ctx, run, steps, now, step } = move;
  await verdictEvent(trx, now, run, step?.step_id ?? null, action.verdict);
  if (run.stage === "PLAN_REVIEW")
    await recordEvent(trx, now, run.id, null, "plan.approved", {
      feedback: action.verdict?.feedback ?? "",
    });
  if (step) await approveStep(trx, now, run, step, action.verdict);
  const next = steps.find((s) => s.status === "PENDING" && s.id !== step?.id);
  if (!next) throw new Error(`run ${run.id}: no pending step to start`);
  await startStep(trx, ctx, run, next, steps.length, {
    stage: "AGENT",
    correction_round: 0,
    review_restarts: 0,
  });
}

/** The step's agent answered: the master reviews its work. */
async function requestReview(move: Move, _action: ActionOfKind["request_review"]): Promise<void> {
  const { trx, ctx, run, steps, now, step, masterConversation } = move;
  if (!step) throw new Error(`run ${run.id}: no current step to review`);
  const answer = (await answerOf(trx, run.active_queue_id as string))?.content ?? "";
  await mustMove(
    moveStep(trx, step.id, STEP_ACTIONS.submit_for_review, { status: "REVIEWING" }, now),
    `step ${step.id}`,
  );
  const item = await queue(
    trx,
    ctx,
    run,
    masterConversation,
    reviewPrompt(ctx.locale, step, steps.length, passText(ctx, masterConversation, answer)),
  );
  await mustMove(
    moveRun(trx, run, { stage: "SUPERVISOR", active_queue_id: item.id, review_restarts: 0 }, now),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, step.step_id, "step.submitted", {
    queue_id: run.active_queue_id,
    attempts: step.attempts,
  });
  await announce(trx, now, run.id, "RUNNING", "SUPERVISOR");
}

/** The master asked for corrections: the step's agent gets another round. */
async function requestCorrection(move: Move, action: ActionOfKind["request_correction"]): Promise<void> {
  const { trx, ctx, run, now, step } = move;
  if (!step?.conversation_id) throw new Error(`run ${run.id}: no step conversation to correct in`);
  const round = run.correction_round + 1;
  await verdictEvent(trx, now, run, step.step_id, action.verdict);
  const item = await queue(
    trx,
    ctx,
    run,
    step.conversation_id,
    correctionPrompt(ctx.locale, step, round, passText(ctx, step.conversation_id, action.verdict.feedback)),
  );
  await mustMove(
    moveStep(
      trx,
      step.id,
      STEP_ACTIONS.review_verdict,
      {
        status: "CORRECTING",
        attempts: step.attempts + 1,
        feedback: action.verdict.feedback,
        queue_id: item.id,
      },
      now,
    ),
    `step ${step.id}`,
  );
  await mustMove(
    moveRun(
      trx,
      run,
      { stage: "AGENT", active_queue_id: item.id, correction_round: round, review_restarts: 0 },
      now,
    ),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, step.step_id, "step.correction_requested", {
    round,
    feedback: action.verdict.feedback,
  });
  await announce(trx, now, run.id, "RUNNING", "AGENT");
}

/** The last step was approved: the master reviews the whole run. */
async function finalReview(move: Move, action: ActionOfKind["final_review"]): Promise<void> {
  const { trx, ctx, run, steps, now, step, masterConversation } = move;
  await verdictEvent(trx, now, run, step?.step_id ?? null, action.verdict);
  if (step) await approveStep(trx, now, run, step, action.verdict);
  const approved = steps.map((s) =>
    s.id === step?.id ? { ...s, status: "APPROVED" as const, feedback: action.verdict.feedback } : s,
  );
  const item = await queue(trx, ctx, run, masterConversation, finalReviewPrompt(ctx.locale, approved));
  await mustMove(
    moveRun(
      trx,
      run,
      {
        stage: "FINAL_REVIEW",
        current_step_id: null,
        active_queue_id: item.id,
        correction_round: 0,
        review_restarts: 0,
      },
      now,
    ),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, null, "run.final_review", {});
  await announce(trx, now, run.id, "RUNNING", "FINAL_REVIEW");
}

/** The final review approved: the run is over, with its report. */
async function complete(move: Move, action: ActionOfKind["complete"]): Promise<void> {
  const { trx, run, now } = move;
  await mustMove(
    moveRun(
      trx,
      run,
      { status: "COMPLETED", stage: "IDLE", final_report: action.report, finished_at: now },
      now,
    ),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, null, "run.completed", {});
  await announce(trx, now, run.id, "COMPLETED", "IDLE");
}

/** A review was interrupted: the master is asked again (it only reads, so replaying is safe). */
async function restartReview(move: Move, _action: ActionOfKind["restart_review"]): Promise<void> {
  const { trx, ctx, run, steps, now, step, masterConversation } = move;
  const item = await queue(
    trx,
    ctx,
    run,
    masterConversation,
    await masterPrompt(trx, ctx, run, run.stage as WorkStage, step, steps),
  );
  await mustMove(
    moveRun(trx, run, { active_queue_id: item.id, review_restarts: run.review_restarts + 1 }, now),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, step?.step_id ?? null, "master.review_restarted", {
    stage: run.stage,
    interrupted_queue_id: run.active_queue_id,
  });
  await announce(trx, now, run.id, "RUNNING", run.stage);
}

async function approveStep(
  trx: Kysely<DB>,
  now: number,
  run: RunRow,
  step: StepWithProject,
  v: Supervision | null,
): Promise<void> {
  await mustMove(
    moveStep(
      trx,
      step.id,
      STEP_ACTIONS.review_verdict,
      { status: "APPROVED", feedback: v?.feedback ?? null, finished_at: now },
      now,
    ),
    `step ${step.id}`,
  );
  await recordEvent(trx, now, run.id, step.step_id, "step.approved", {
    feedback: v?.feedback ?? "",
    attempts: step.attempts,
  });
}

/** A step's first attempt: a new conversation of its project, owned by the run's owner. */
async function startStep(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  step: StepWithProject,
  total: number,
  runSet: Parameters<typeof moveRun>[2],
): Promise<void> {
  const now = ctx.clock.now();
  const conversation = await createConversation(
    trx,
    ctx.clock,
    step.project_id,
    t(ctx.locale, "run.step_title", { order: step.position, title: step.title }),
    run.owner_id,
  );
  const item = await queue(trx, ctx, run, conversation.id, stepPrompt(ctx.locale, step, total));
  await mustMove(
    moveStep(
      trx,
      step.id,
      STEP_ACTIONS.start,
      { status: "WORKING", conversation_id: conversation.id, queue_id: item.id, attempts: 1, feedback: null },
      now,
    ),
    `step ${step.id}`,
  );
  await mustMove(
    moveRun(trx, run, { ...runSet, current_step_id: step.step_id, active_queue_id: item.id }, now),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, step.step_id, "step.started", {
    project_id: step.project_id,
    conversation_id: conversation.id,
  });
  await announce(trx, now, run.id, "RUNNING", "AGENT");
}

/** The master's prompt for a (re)started stage; a step review restarts as an inspection only. */
async function masterPrompt(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  stage: WorkStage,
  step: StepWithProject | undefined,
  steps: StepWithProject[],
): Promise<string> {
  if (stage === "SUPERVISOR" && step) {
    const answer = step.queue_id ? ((await answerOf(trx, step.queue_id))?.content ?? "") : "";
    return reviewRestartPrompt(ctx.locale, step, passText(ctx, run.master_conversation_id as string, answer));
  }
  return stage === "FINAL_REVIEW"
    ? finalReviewPrompt(ctx.locale, steps)
    : planReviewPrompt(ctx.locale, steps);
}

/** The stage a blocked run stopped at; rows blocked by an older version are inferred (S-RUN-13). */
export async function blockedStageOf(
  trx: Kysely<DB>,
  run: RunRow,
  steps: readonly StepWithProject[],
): Promise<{ stage: WorkStage; stepId: string | null }> {
  if (run.blocked_stage) return { stage: run.blocked_stage, stepId: run.current_step_id };
  const active = await itemState(trx, run.active_queue_id);
  return inferBlockedStage({
    activeConversationId: active?.conversation_id ?? null,
    masterConversationId: run.master_conversation_id,
    steps: steps.map((s) => ({ stepId: s.step_id, status: s.status, conversationId: s.conversation_id })),
  });
}

/**
 * Takes a BLOCKED run up again (owner's resume or a successful self-repair): at the agent after a
 * master's verdict, at the stage that was interrupted otherwise, or on the same item after a
 * processor crash. The step keeps its conversation; correction rounds start over.
 */
export async function resumeIn(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  steps: StepWithProject[],
  event: { kind: string; details: Record<string, unknown> },
): Promise<void> {
  const now = ctx.clock.now();
  const blocked = await blockedStageOf(trx, run, steps);
  const point = resumePoint(blocked.stage, run.block_code ?? "legacy");
  const onStep = point.stage === "AGENT" || point.stage === "SUPERVISOR";
  const step = onStep
    ? (steps.find((s) => s.step_id === blocked.stepId) ?? steps.find((s) => s.status !== "APPROVED"))
    : undefined;
  const base = {
    status: "RUNNING" as const,
    stage: point.stage,
    current_step_id: step?.step_id ?? null,
    correction_round: 0,
    review_restarts: 0,
    blocked_stage: null,
    block_code: null,
    error: null,
    finished_at: null,
  };
  const notApproved = STEP_ACTIONS.resume;
  if (point.mode === "reprocess") {
    // The active item is read again by the next tick: its result, if any, is not lost.
    if (step)
      await mustMove(
        moveStep(
          trx,
          step.id,
          notApproved,
          {
            status: step.conversation_id ? stepStatusAt(point.stage, step.attempts) : "PENDING",
            feedback: null,
          },
          now,
        ),
        `step ${step.id}`,
      );
    await mustMove(moveRun(trx, run, base, now), `run ${run.id}`);
  } else if (point.stage === "AGENT" && step && !step.conversation_id) {
    await startStep(trx, ctx, run, step, steps.length, base);
  } else if (point.stage === "AGENT" && step?.conversation_id) {
    const item = await queue(
      trx,
      ctx,
      run,
      step.conversation_id,
      resumeStepPrompt(ctx.locale, step, passText(ctx, step.conversation_id, run.error ?? "")),
    );
    await mustMove(
      moveStep(
        trx,
        step.id,
        notApproved,
        { status: "CORRECTING", attempts: step.attempts + 1, queue_id: item.id, finished_at: null },
        now,
      ),
      `step ${step.id}`,
    );
    await mustMove(moveRun(trx, run, { ...base, active_queue_id: item.id }, now), `run ${run.id}`);
  } else {
    if (step)
      await mustMove(moveStep(trx, step.id, notApproved, { status: "REVIEWING" }, now), `step ${step.id}`);
    const item = await queue(
      trx,
      ctx,
      run,
      run.master_conversation_id as string,
      await masterPrompt(trx, ctx, run, point.stage, step, steps),
    );
    await mustMove(moveRun(trx, run, { ...base, active_queue_id: item.id }, now), `run ${run.id}`);
  }
  await recordEvent(trx, now, run.id, step?.step_id ?? null, event.kind, {
    ...event.details,
    stage: point.stage,
  });
  await announce(trx, now, run.id, "RUNNING", point.stage);
}
