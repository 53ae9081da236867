import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import { emit } from "../outbox.js";
import { answerOf, createConversation, enqueueIn } from "../conversations/index.js";
import { budgetRefusalIn, chargeeOf } from "../usage/index.js";
import { parseSelfRepair, type Supervision } from "../protocol/index.js";
import { t } from "../../i18n/index.js";
import { withReport } from "../workspaces/index.js";
import {
  MAX_CORRECTION_ROUNDS,
  MAX_SELF_REPAIRS,
  STEP_ACTIONS,
  type BlockCode,
  type WorkStage,
} from "./machine.js";
import { passText } from "../conversations/index.js";
import { selfRepairPrompt, type StepWithProject } from "./prompts.js";
import {
  announce,
  findSelfProject,
  insertRepair,
  moveRepair,
  moveRun,
  moveStep,
  mustMove,
  recordEvent,
  repairCount,
  LostRace,
  type ItemState,
} from "./store.js";
import { blockedStageOf, resumeIn, type RunCtx } from "./transitions.js";
import type { RunRow, SelfRepairRow } from "./schema.js";
import { failureText } from "../../i18n/failures.js";

// Blocking a run and its self-repair: an agent of the self project, in a new conversation (and
// its own clone of the project), restricted (repair origin), told the block as untrusted data.
// Its verdict resumes the run (fixed) or leaves it to the owner (needs_user).

/** Why and where a run blocks. */
export interface Block {
  code: BlockCode;
  error: string;
  verdict?: Supervision | null;
  /** The step concerned, when the caller knows better than the run (the tests' seam). */
  stepId?: string | null;
}

/** The text people read for a block (the run's locale). */
function blockText(ctx: RunCtx, b: Block): string {
  if (b.code === "no_verdict") return t(ctx.locale, "run.error.no_verdict");
  if (b.code === "corrections_exhausted")
    return t(ctx.locale, "run.error.corrections_exhausted", {
      max: MAX_CORRECTION_ROUNDS,
      feedback: b.error,
    });
  // Kept whole (views cut it for Slack with a mark; prompts pass it through the inbox).
  return b.error;
}

/**
 * Blocks a RUNNING run where it stands: the step concerned is BLOCKED (not finished), the run
 * keeps its conversations, and a self-repair starts when a self project exists. Returns the
 * self-repair's id, if one started.
 */
export async function blockIn(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  steps: StepWithProject[],
  b: Block,
): Promise<string | null> {
  const now = ctx.clock.now();
  const stage: WorkStage = run.stage === "IDLE" ? "AGENT" : run.stage;
  const stepId = b.stepId ?? run.current_step_id;
  const step =
    stage === "AGENT" || stage === "SUPERVISOR" ? steps.find((s) => s.step_id === stepId) : undefined;
  const error = blockText(ctx, b);
  if (b.verdict) {
    await recordEvent(trx, now, run.id, step?.step_id ?? null, "master.verdict", {
      stage,
      decision: b.verdict.decision,
      feedback: b.verdict.feedback,
    });
    await emit(trx, now, {
      kind: "run.verdict",
      runId: run.id,
      stepId: step?.step_id ?? null,
      decision: b.verdict.decision,
      feedback: b.verdict.feedback,
    });
  }
  if (step)
    await mustMove(
      moveStep(trx, step.id, STEP_ACTIONS.block, { status: "BLOCKED", feedback: error }, now),
      `step ${step.id}`,
    );
  await mustMove(
    moveRun(
      trx,
      run,
      {
        status: "BLOCKED",
        stage: "IDLE",
        current_step_id: step?.step_id ?? run.current_step_id,
        blocked_stage: stage,
        block_code: b.code,
        error,
        self_repair_id: null,
      },
      now,
    ),
    `run ${run.id}`,
  );
  await recordEvent(trx, now, run.id, step?.step_id ?? null, "run.blocked", { stage, code: b.code, error });
  await announce(trx, now, run.id, "BLOCKED", "IDLE");
  const blocked = {
    ...run,
    status: "BLOCKED" as const,
    stage: "IDLE" as const,
    blocked_stage: stage,
    block_code: b.code,
    error,
    self_repair_id: null,
    current_step_id: step?.step_id ?? run.current_step_id,
  };
  return dispatchRepair(trx, ctx, blocked, step ?? null, "self_repair.started");
}

/**
 * Sends a blocked run to the self project: a new conversation (the step's own is never touched),
 * a repair prompt quoting the block. None without a self project, or past the run's repair budget.
 */
/**
 * A run's self-repair is a turn charged to the run's owner in the self project: none when the run
 * was blocked by a budget (nothing to repair) or when the owner's or the self project's is reached
 * (the run stays blocked for its owner to resume).
 */
async function overBudget(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  selfId: string,
): Promise<"over_budget" | null> {
  if (run.block_code === "over_budget") return "over_budget";
  const chargee = await chargeeOf(trx, selfId, run.owner_id);
  const refusal = await budgetRefusalIn(trx, { clock: ctx.clock, config: { admins: ctx.admins } }, chargee);
  return refusal ? "over_budget" : null;
}

async function dispatchRepair(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  step: StepWithProject | null,
  kind: "self_repair.started" | "self_repair.catchup_started",
): Promise<string | null> {
  const now = ctx.clock.now();
  const stage = run.blocked_stage as WorkStage;
  const self = await findSelfProject(trx);
  const budget = self ? MAX_SELF_REPAIRS - (await repairCount(trx, run.id)) : 0;
  const skipped = !self
    ? "no_self_project"
    : budget <= 0
      ? "limit"
      : await overBudget(trx, ctx, run, self.id);
  if (!self || skipped) {
    await recordEvent(trx, now, run.id, step?.step_id ?? null, "self_repair.skipped", { reason: skipped });
    return null;
  }
  const code = run.block_code ?? "legacy";
  const conversation = await createConversation(
    trx,
    ctx.clock,
    self.id,
    t(ctx.locale, "run.repair_title", { stage }),
    run.owner_id,
  );
  const prompt = selfRepairPrompt(ctx.locale, {
    stage,
    code,
    error: passText(ctx, conversation.id, run.error ?? ""),
    step,
  });
  const item = await enqueueIn(trx, ctx.clock, conversation.id, prompt, {
    origin: "repair",
    requestedBy: run.owner_id,
  });
  const id = await insertRepair(trx, {
    run_id: run.id,
    step_id: step?.step_id ?? null,
    status: "RUNNING",
    blocked_stage: stage,
    block_code: code,
    error: run.error ?? "",
    project_id: self.id,
    conversation_id: conversation.id,
    queue_id: item.id,
    feedback: null,
    prompt_addendum: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  });
  const u = await trx
    .updateTable("remediation_runs")
    .set({ self_repair_id: id, updated_at: now })
    .where("id", "=", run.id)
    .where("status", "=", "BLOCKED")
    .executeTakeFirst();
  if (Number(u.numUpdatedRows) !== 1) throw new LostRace(`run ${run.id}`);
  await recordEvent(trx, now, run.id, step?.step_id ?? null, kind, {
    self_repair_id: id,
    project_id: self.id,
    conversation_id: conversation.id,
    blocked_stage: stage,
  });
  await announce(trx, now, run.id, "BLOCKED", "IDLE");
  return id;
}

/**
 * A finished self-repair: `fixed` appends its addendum to the step's prompt and resumes the run;
 * `needs_user` leaves it BLOCKED for the owner; anything else is a failed repair (still BLOCKED).
 * `report` (the branch its clone's work was committed on) follows the feedback people read.
 */
export async function settleRepairIn(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  steps: StepWithProject[],
  repair: SelfRepairRow,
  item: ItemState,
  report: string | null = null,
): Promise<void> {
  const now = ctx.clock.now();
  const answer = item.status === "done" ? ((await answerOf(trx, item.id))?.content ?? "") : null;
  const verdict = answer !== null ? parseSelfRepair(answer) : null;
  if (!verdict) {
    const error =
      answer !== null
        ? t(ctx.locale, "run.error.repair_no_verdict")
        : (failureText(ctx.locale, item.error) ?? item.status);
    await mustMove(
      moveRepair(
        trx,
        repair.id,
        "RUNNING",
        { status: "FAILED", error, finished_at: now, ...(report ? { feedback: report } : {}) },
        now,
      ),
      `repair ${repair.id}`,
    );
    await recordEvent(trx, now, run.id, repair.step_id, "self_repair.failed", {
      self_repair_id: repair.id,
      error,
      report,
    });
    await announce(trx, now, run.id, "BLOCKED", "IDLE");
    return;
  }
  const status = verdict.decision === "fixed" ? "SUCCEEDED" : "NEEDS_USER";
  const feedback = report ? withReport(verdict.feedback, report) : verdict.feedback;
  const settled = { status, feedback, prompt_addendum: verdict.prompt_addendum, finished_at: now } as const;
  await mustMove(moveRepair(trx, repair.id, "RUNNING", settled, now), `repair ${repair.id}`);
  if (verdict.decision === "needs_user") {
    await recordEvent(trx, now, run.id, repair.step_id, "self_repair.needs_user", {
      self_repair_id: repair.id,
      feedback,
      report,
    });
    await announce(trx, now, run.id, "BLOCKED", "IDLE");
    return;
  }
  const step = steps.find((s) => s.step_id === repair.step_id);
  let rebased = steps;
  if (step && verdict.prompt_addendum) {
    const prompt = `${step.prompt}\n\n${verdict.prompt_addendum}`;
    await trx
      .updateTable("remediation_step_runs")
      .set({ prompt, updated_at: now })
      .where("id", "=", step.id)
      .execute();
    rebased = steps.map((s) => (s.id === step.id ? { ...s, prompt } : s));
  }
  await resumeIn(trx, ctx, run, rebased, {
    kind: "self_repair.resumed",
    details: {
      self_repair_id: repair.id,
      feedback: verdict.feedback,
      prompt_addendum: verdict.prompt_addendum,
      report,
    },
  });
}

/**
 * Upgrade catch-up (S-RUN-13): a run an older version left BLOCKED without recording where gets
 * its blocked stage inferred, then the self-repair that version never sent.
 */
export async function catchUpIn(
  trx: Kysely<DB>,
  ctx: RunCtx,
  run: RunRow,
  steps: StepWithProject[],
): Promise<{ stage: WorkStage; repairId: string | null }> {
  const now = ctx.clock.now();
  const { stage, stepId } = await blockedStageOf(trx, { ...run, blocked_stage: null }, steps);
  const current = stepId ?? run.current_step_id;
  await mustMove(
    moveRun(
      trx,
      run,
      {
        blocked_stage: stage,
        block_code: run.block_code ?? "legacy",
        current_step_id: current,
        stage: "IDLE",
      },
      now,
    ),
    `run ${run.id}`,
  );
  const caught = {
    ...run,
    blocked_stage: stage,
    block_code: run.block_code ?? ("legacy" as const),
    current_step_id: current,
  };
  const step =
    stage === "AGENT" || stage === "SUPERVISOR" ? (steps.find((s) => s.step_id === current) ?? null) : null;
  await recordEvent(trx, now, run.id, step?.step_id ?? null, "run.catchup", { blocked_stage: stage });
  return { stage, repairId: await dispatchRepair(trx, ctx, caught, step, "self_repair.catchup_started") };
}
