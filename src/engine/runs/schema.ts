import type { Generated, Selectable } from "kysely";
import type { BlockCode, RunStage, RunStatus, SelfRepairStatus, StepStatus, WorkStage } from "./machine.js";

// Row types of the autonomous runs' tables (db/migrations/0005_runs.ts). Times are epoch ms.

/** An autonomous run (seed: remediation_runs). */
export interface RemediationRunsTable {
  id: string;
  owner_id: string;
  status: RunStatus;
  stage: RunStage;
  /** The plan as validated at start (JSON), for the record; the steps table holds the live copy. */
  plan: string;
  master_project_id: string;
  master_conversation_id: string | null;
  current_step_id: string | null;
  active_queue_id: string | null;
  self_repair_id: string | null;
  correction_round: Generated<number>;
  review_restarts: Generated<number>;
  /** Where the run stopped; null while running, and on rows blocked by an older version. */
  blocked_stage: WorkStage | null;
  block_code: BlockCode | null;
  error: string | null;
  final_report: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** One plan step of a run (seed: remediation_step_runs); `step_id` is the plan's own id. */
export interface RemediationStepRunsTable {
  id: string;
  run_id: string;
  step_id: string;
  position: number;
  phase: number;
  phase_label: string;
  title: string;
  summary: string;
  risk: string;
  target: string;
  aliases: string;
  project_id: string;
  prompt: string;
  status: StepStatus;
  conversation_id: string | null;
  queue_id: string | null;
  attempts: number;
  feedback: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** The run's history as people read it (`kind`, `details` JSON). */
export interface RemediationRunEventsTable {
  id: Generated<number>;
  run_id: string;
  step_id: string | null;
  kind: string;
  details: string;
  created_at: number;
}

/** A self-repair sent to the self project when a run blocks. */
export interface RemediationSelfRepairsTable {
  id: string;
  run_id: string;
  step_id: string | null;
  status: SelfRepairStatus;
  blocked_stage: WorkStage;
  block_code: BlockCode;
  error: string;
  project_id: string;
  conversation_id: string;
  queue_id: string;
  feedback: string | null;
  prompt_addendum: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

declare module "../schema.js" {
  interface DB {
    remediation_runs: RemediationRunsTable;
    remediation_step_runs: RemediationStepRunsTable;
    remediation_run_events: RemediationRunEventsTable;
    remediation_self_repairs: RemediationSelfRepairsTable;
  }
}

/** A run row. */
export type RunRow = Selectable<RemediationRunsTable>;
/** A step row. */
export type StepRow = Selectable<RemediationStepRunsTable>;
/** A self-repair row. */
export type SelfRepairRow = Selectable<RemediationSelfRepairsTable>;
