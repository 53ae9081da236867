import type { Supervision } from "../protocol/index.js";
import { actionsAt, allows, allowsMove, type ActionTable, type TransitionTable } from "../stateMachine.js";

// The autonomous run's state machine, without I/O: the shared tables (stateMachine.ts) of the run,
// its steps and its self-repairs, and, given what the run is waiting on and what came back, which
// transition to take. transitions.ts carries them out with the store's guarded writes.

/** A run's lifecycle; BLOCKED still counts as the installation's one active run. */
export type RunStatus = "RUNNING" | "BLOCKED" | "COMPLETED" | "CANCELLED";
/** Who holds the ball: the master (plan, step or final review), a project agent, or nobody. */
export type RunStage = "PLAN_REVIEW" | "AGENT" | "SUPERVISOR" | "FINAL_REVIEW" | "IDLE";
/** One plan step's lifecycle. */
export type StepStatus = "PENDING" | "WORKING" | "REVIEWING" | "CORRECTING" | "APPROVED" | "BLOCKED";
/** A self-repair's lifecycle (SUPERSEDED: the owner resumed the run first). */
export type SelfRepairStatus = "RUNNING" | "SUCCEEDED" | "NEEDS_USER" | "SUPERSEDED" | "FAILED";
/**
 * Why a run blocked; it decides where a resume starts again. `legacy`: blocked by an older
 * version that recorded no stage (S-RUN-13).
 */
export type BlockCode =
  | "master_block"
  | "no_verdict"
  | "corrections_exhausted"
  | "interrupted"
  | "item_failed"
  | "crash"
  | "over_budget"
  | "legacy";

/** The stages a run in work can be in (IDLE is only for blocked or finished runs). */
export type WorkStage = Exclude<RunStage, "IDLE">;

/** Allowed status changes; a missing status fails to compile. */
export const RUN_TRANSITIONS = {
  RUNNING: ["BLOCKED", "COMPLETED", "CANCELLED"],
  BLOCKED: ["RUNNING", "CANCELLED"],
  COMPLETED: [],
  CANCELLED: [],
} as const satisfies TransitionTable<RunStatus>;

/**
 * Allowed step status changes; a missing status fails to compile. A block or a resume puts any
 * step not yet approved where the run stops or starts again (a reprocessed step may keep its status).
 */
export const STEP_TRANSITIONS = {
  PENDING: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
  WORKING: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
  REVIEWING: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "APPROVED", "BLOCKED"],
  CORRECTING: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
  APPROVED: [],
  BLOCKED: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
} as const satisfies TransitionTable<StepStatus>;

/** What happens to a step, and the statuses that allow it. */
export const STEP_ACTIONS = {
  start: ["PENDING", "BLOCKED"],
  submit_for_review: ["WORKING", "CORRECTING"],
  review_verdict: ["REVIEWING"],
  block: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
  resume: ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"],
} as const satisfies ActionTable<StepStatus, StepAction>;

/** What happens to a step (the run's processor and resumes drive it; no person acts on a step directly). */
export type StepAction = "start" | "submit_for_review" | "review_verdict" | "block" | "resume";

/** Whether a step in `status` allows `action`. */
export const canStep = (status: StepStatus, action: StepAction): boolean =>
  allows(STEP_ACTIONS, status, action);

/** Allowed self-repair status changes; the owner's resume supersedes a repair still running or waiting for them. */
export const SELF_REPAIR_TRANSITIONS = {
  RUNNING: ["SUCCEEDED", "NEEDS_USER", "SUPERSEDED", "FAILED"],
  SUCCEEDED: [],
  NEEDS_USER: ["SUPERSEDED"],
  SUPERSEDED: [],
  FAILED: [],
} as const satisfies TransitionTable<SelfRepairStatus>;

/** What happens to a self-repair. */
export type SelfRepairAction = "settle" | "supersede";

/** The statuses each self-repair action needs. */
const SELF_REPAIR_ACTIONS = {
  settle: ["RUNNING"],
  supersede: ["RUNNING", "NEEDS_USER"],
} as const satisfies ActionTable<SelfRepairStatus, SelfRepairAction>;

/** Whether a self-repair in `status` allows `action`. */
export const canSelfRepair = (status: SelfRepairStatus, action: SelfRepairAction): boolean =>
  allows(SELF_REPAIR_ACTIONS, status, action);

/** The actions a self-repair in `status` allows. */
export const selfRepairActions = (status: SelfRepairStatus): SelfRepairAction[] =>
  actionsAt(SELF_REPAIR_ACTIONS, status);

/** What a person (or the engine's internal block) does to a run. */
export type RunCommand = "resume" | "revise" | "cancel" | "block";

/** The statuses each run command needs: a blocked run is resumed or revised, an active one cancelled. */
const RUN_ACTIONS = {
  resume: ["BLOCKED"],
  revise: ["BLOCKED"],
  cancel: ["RUNNING", "BLOCKED"],
  block: ["RUNNING"],
} as const satisfies ActionTable<RunStatus, RunCommand>;

/** Whether a run in `status` allows `command` (e.g. whether its message shows Resume and Revise). */
export const canRun = (status: RunStatus, command: RunCommand): boolean =>
  allows(RUN_ACTIONS, status, command);

/** The commands a run in `status` allows. */
export const runActions = (status: RunStatus): RunCommand[] => actionsAt(RUN_ACTIONS, status);

/** Statuses that hold the installation's single run slot. */
export const ACTIVE_STATUSES = ["RUNNING", "BLOCKED"] as const satisfies readonly RunStatus[];

/** Whether `from → to` is a legal status change. */
export const canMove = (from: RunStatus, to: RunStatus): boolean => allowsMove(RUN_TRANSITIONS, from, to);

/** Correction rounds the master may ask for one step; the next `correct` blocks the run. */
export const MAX_CORRECTION_ROUNDS = 3;
/** Interrupted reviews restarted in a row before the run blocks (a worker that keeps dying). */
const MAX_REVIEW_RESTARTS = 2;
/** Self-repairs one run may get; beyond, blocks wait for the owner (no repair loops). */
export const MAX_SELF_REPAIRS = 3;

/** What the run's active queue item came to. */
export type Observation =
  | { state: "pending" }
  | { state: "done"; answer: string; verdict: Supervision | null }
  | { state: "failed"; interrupted: boolean; error: string };

/** What the run knows when it decides. */
export interface DecisionContext {
  stage: RunStage;
  correctionRound: number;
  reviewRestarts: number;
  hasNextStep: boolean;
}

/** One transition of a running run. */
export type RunAction =
  | { kind: "wait" }
  | { kind: "start_next_step"; verdict: Supervision | null }
  | { kind: "request_review" }
  | { kind: "request_correction"; verdict: Supervision }
  | { kind: "final_review"; verdict: Supervision }
  | { kind: "complete"; report: string }
  | { kind: "restart_review" }
  | { kind: "block"; code: BlockCode; error: string; verdict: Supervision | null };

const MASTER_STAGES: ReadonlySet<RunStage> = new Set(["PLAN_REVIEW", "SUPERVISOR", "FINAL_REVIEW"]);

/** Whether the master holds the ball at this stage (its work there is read-only review). */
const isMasterStage = (stage: RunStage): boolean => MASTER_STAGES.has(stage);

/** The transition a running run takes once its active item has an outcome. */
export function decide(ctx: DecisionContext, obs: Observation): RunAction {
  if (obs.state === "pending" || ctx.stage === "IDLE") return { kind: "wait" };
  if (obs.state === "failed") {
    // A review only reads: replaying it cannot duplicate changes, so it is restarted (a few times).
    if (obs.interrupted && isMasterStage(ctx.stage) && ctx.reviewRestarts < MAX_REVIEW_RESTARTS)
      return { kind: "restart_review" };
    return {
      kind: "block",
      code: obs.interrupted ? "interrupted" : "item_failed",
      error: obs.error,
      verdict: null,
    };
  }
  const v = obs.verdict;
  switch (ctx.stage) {
    case "AGENT":
      return { kind: "request_review" };
    case "PLAN_REVIEW":
      if (!v) return { kind: "block", code: "no_verdict", error: "", verdict: null };
      // Only the owner (revised plan) or a self-repair (addendum) can change a plan: `correct` blocks.
      if (v.decision !== "approve")
        return { kind: "block", code: "master_block", error: v.feedback, verdict: v };
      return { kind: "start_next_step", verdict: v };
    case "SUPERVISOR":
      if (!v) return { kind: "block", code: "no_verdict", error: "", verdict: null };
      if (v.decision === "block")
        return { kind: "block", code: "master_block", error: v.feedback, verdict: v };
      if (v.decision === "correct") {
        if (ctx.correctionRound >= MAX_CORRECTION_ROUNDS)
          return { kind: "block", code: "corrections_exhausted", error: v.feedback, verdict: v };
        return { kind: "request_correction", verdict: v };
      }
      return ctx.hasNextStep ? { kind: "start_next_step", verdict: v } : { kind: "final_review", verdict: v };
    case "FINAL_REVIEW":
      // The synthesis needs no marker; an explicit block still stops the run.
      if (v?.decision === "block")
        return { kind: "block", code: "master_block", error: v.feedback, verdict: v };
      return { kind: "complete", report: obs.answer };
  }
}

/**
 * Where a blocked run starts again. A master's verdict on a step sends the step back to its agent;
 * a failed or interrupted item restarts the stage it interrupted (S-RUN-11); a processor crash
 * re-reads the same item (its result is not lost); a missing verdict asks the master again.
 */
export function resumePoint(
  blockedStage: WorkStage,
  code: BlockCode,
): { stage: WorkStage; mode: "restart" | "reprocess" } {
  // A crash, or a budget reached before the next stage was queued: the finished item is read again.
  if (code === "crash" || code === "over_budget") return { stage: blockedStage, mode: "reprocess" };
  if (
    (code === "master_block" || code === "corrections_exhausted") &&
    (blockedStage === "SUPERVISOR" || blockedStage === "AGENT")
  ) {
    return { stage: "AGENT", mode: "restart" };
  }
  return { stage: blockedStage, mode: "restart" };
}

/** What catch-up knows about a run blocked by an older version. */
export interface LegacyBlock {
  activeConversationId: string | null;
  masterConversationId: string | null;
  steps: ReadonlyArray<{ stepId: string; status: StepStatus; conversationId: string | null }>;
}

/**
 * The stage a legacy block interrupted, inferred from the conversation that owns the run's last
 * active item (S-RUN-13): the master's after all steps approved → FINAL_REVIEW, before any step
 * started → PLAN_REVIEW, else → SUPERVISOR (the step under review); a step's conversation → AGENT.
 */
export function inferBlockedStage(b: LegacyBlock): { stage: WorkStage; stepId: string | null } {
  const owner = b.steps.find((s) => s.conversationId !== null && s.conversationId === b.activeConversationId);
  if (owner) return { stage: "AGENT", stepId: owner.stepId };
  const started = b.steps.filter((s) => s.conversationId !== null);
  if (started.length === 0) return { stage: "PLAN_REVIEW", stepId: null };
  if (b.steps.every((s) => s.status === "APPROVED")) return { stage: "FINAL_REVIEW", stepId: null };
  const current =
    b.steps.find((s) => s.status === "REVIEWING") ??
    b.steps.find((s) => s.status === "BLOCKED") ??
    started[started.length - 1];
  return {
    stage: b.activeConversationId === b.masterConversationId ? "SUPERVISOR" : "AGENT",
    stepId: current?.stepId ?? null,
  };
}

/** The status a step shows while the run is at `stage` on it (attempts > 1: a correction). */
export function stepStatusAt(stage: WorkStage, attempts: number): StepStatus {
  if (stage === "SUPERVISOR") return "REVIEWING";
  return attempts > 1 ? "CORRECTING" : "WORKING";
}
