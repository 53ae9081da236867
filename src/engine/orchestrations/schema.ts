import type { Generated, Selectable } from "kysely";
import type { OrchestrationStatus } from "./machine.js";

// Row types of db/migrations/0006_orchestrations. Times are epoch milliseconds; JSON columns
// hold arrays (criteria, tests as argv lists, draft feedback) or objects (verification).

/** One orchestration: a change drafted, worked in a clone, verified, approved and merged. */
export interface OrchestrationsTable {
  id: string;
  project_id: string;
  owner_id: string | null;
  name: string;
  request: string;
  acceptance_criteria: string;
  tests: string;
  engine: string;
  status: OrchestrationStatus;
  draft: string;
  draft_version: number;
  draft_hash: string;
  draft_feedback: string;
  base_branch: string | null;
  base_revision: string | null;
  branch: string | null;
  /**
   * The agent's clone under `<data dir>/clones/orch/`. Named when agents worked in git worktrees;
   * not renamed, because landed migrations are frozen (an older row may still hold a worktree).
   */
  worktree_path: string | null;
  conversation_id: string | null;
  queue_id: string | null;
  verified_revision: string | null;
  approved_revision: string | null;
  merged_revision: string | null;
  verification: string | null;
  last_error: string | null;
  /** Who holds the current git/test step (PREPARING, VERIFYING, MERGING, CANCELLING), until when. */
  claim_token: string | null;
  claim_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

/** What happened to an orchestration, in order (`agent.finished`, `verification.passed`, …). */
export interface OrchestrationEventsTable {
  id: Generated<number>;
  orchestration_id: string;
  kind: string;
  queue_id: string | null;
  detail: string;
  created_at: number;
}

/** An orchestration row as read. */
export type Orchestration = Selectable<OrchestrationsTable>;

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its tables to it.
declare module "../schema.js" {
  interface DB {
    orchestrations: OrchestrationsTable;
    orchestration_events: OrchestrationEventsTable;
  }
}
