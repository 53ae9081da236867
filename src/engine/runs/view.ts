import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type { SelfRepairRow } from "./schema.js";
import type { BlockCode, RunStage, RunStatus, StepStatus, WorkStage } from "./machine.js";
import { findRepair, findRun, loadSteps } from "./store.js";

/** One step of a run as people and views see it (`id` is the plan's step id). */
export interface RunStepView {
  id: string;
  order: number;
  phase: number;
  phase_label: string;
  title: string;
  summary: string;
  risk: string;
  target: string;
  aliases: string[];
  project_id: string;
  project_name: string;
  prompt: string;
  status: StepStatus;
  conversation_id: string | null;
  queue_id: string | null;
  attempts: number;
  feedback: string | null;
  finished_at: number | null;
}

/** One entry of a run's history. */
export interface RunEventView {
  kind: string;
  step_id: string | null;
  details: Record<string, unknown>;
  created_at: number;
}

/** A run's self-repair as people see it. */
export type SelfRepairView = Omit<SelfRepairRow, "run_id" | "updated_at">;

/** A run with its steps, its history and its latest self-repair (SPEC: `detail(run)`). */
export interface RunDetail {
  id: string;
  owner_id: string;
  status: RunStatus;
  stage: RunStage;
  error: string | null;
  correction_round: number;
  active_queue_id: string | null;
  master_project_id: string;
  master_conversation_id: string | null;
  current_step_id: string | null;
  blocked_stage: WorkStage | null;
  block_code: BlockCode | null;
  final_report: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  steps: RunStepView[];
  events: RunEventView[];
  self_repair: SelfRepairView | null;
}

/** What the user interface shows before any run. */
export type RunStatusView = RunDetail | { status: "NOT_STARTED" };

/** Reads a run's detail (no access check: callers check the actor first). */
export async function runDetail(db: Kysely<DB>, runId: string): Promise<RunDetail | null> {
  const run = await findRun(db, runId);
  if (!run) return null;
  const steps = await loadSteps(db, runId);
  const events = await db
    .selectFrom("remediation_run_events")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();
  const repair = await findRepair(db, run.self_repair_id);
  return {
    id: run.id,
    owner_id: run.owner_id,
    status: run.status,
    stage: run.stage,
    error: run.error,
    correction_round: run.correction_round,
    active_queue_id: run.active_queue_id,
    master_project_id: run.master_project_id,
    master_conversation_id: run.master_conversation_id,
    current_step_id: run.current_step_id,
    blocked_stage: run.blocked_stage,
    block_code: run.block_code,
    final_report: run.final_report,
    created_at: run.created_at,
    updated_at: run.updated_at,
    finished_at: run.finished_at,
    steps: steps.map((s) => ({
      id: s.step_id,
      order: s.position,
      phase: s.phase,
      phase_label: s.phase_label,
      title: s.title,
      summary: s.summary,
      risk: s.risk,
      target: s.target,
      aliases: JSON.parse(s.aliases) as string[],
      project_id: s.project_id,
      project_name: s.project_name,
      prompt: s.prompt,
      status: s.status,
      conversation_id: s.conversation_id,
      queue_id: s.queue_id,
      attempts: s.attempts,
      feedback: s.feedback,
      finished_at: s.finished_at,
    })),
    events: events.map((e) => ({
      kind: e.kind,
      step_id: e.step_id,
      details: JSON.parse(e.details) as Record<string, unknown>,
      created_at: e.created_at,
    })),
    self_repair: repair
      ? {
          id: repair.id,
          status: repair.status,
          step_id: repair.step_id,
          blocked_stage: repair.blocked_stage,
          block_code: repair.block_code,
          error: repair.error,
          project_id: repair.project_id,
          conversation_id: repair.conversation_id,
          queue_id: repair.queue_id,
          feedback: repair.feedback,
          prompt_addendum: repair.prompt_addendum,
          created_at: repair.created_at,
          finished_at: repair.finished_at,
        }
      : null,
  };
}
