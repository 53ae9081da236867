import type { Kysely } from "kysely";
import type { Kernel } from "../kernel.js";
import type { DB, Project } from "../schema.js";
import type { Actor } from "../projects/index.js";
import type { OrchestrationStatus } from "./machine.js";
import { eventsOf, visibleOrchestration, visibleOrchestrations, type OrchestrationEvent } from "./store.js";
import { advanceAgent } from "./tick.js";
import type { Orchestration } from "./schema.js";
import type { VerificationRecord } from "./verification.js";

// What people and views read of orchestrations; the moves are in service.ts.

/** An orchestration as people and views see it. */
export interface OrchestrationView {
  id: string;
  project_id: string;
  project_name: string;
  owner_id: string | null;
  name: string;
  request: string;
  acceptance_criteria: string[];
  tests: string[][];
  engine: string;
  status: OrchestrationStatus;
  draft: string;
  draft_version: number;
  draft_hash: string;
  base_branch: string | null;
  branch: string | null;
  /** The agent's clone (the column kept its name from when it was a git worktree). */
  worktree_path: string | null;
  conversation_id: string | null;
  queue_id: string | null;
  verified_revision: string | null;
  approved_revision: string | null;
  merged_revision: string | null;
  merge_confirmation_required: boolean;
  verification: VerificationRecord | null;
  last_error: string | null;
  events: OrchestrationEvent[];
  created_at: number;
  updated_at: number;
}

/** An orchestration as people and views see it (read only: never moves it). */
export async function orchestrationView(
  db: Kysely<DB>,
  row: Orchestration,
  project: Project,
): Promise<OrchestrationView> {
  return {
    id: row.id,
    project_id: row.project_id,
    project_name: project.name,
    owner_id: row.owner_id,
    name: row.name,
    request: row.request,
    acceptance_criteria: JSON.parse(row.acceptance_criteria) as string[],
    tests: JSON.parse(row.tests) as string[][],
    engine: row.engine,
    status: row.status,
    draft: row.draft,
    draft_version: row.draft_version,
    draft_hash: row.draft_hash,
    base_branch: row.base_branch,
    branch: row.branch,
    worktree_path: row.worktree_path,
    conversation_id: row.conversation_id,
    queue_id: row.queue_id,
    verified_revision: row.verified_revision,
    approved_revision: row.approved_revision,
    merged_revision: row.merged_revision,
    merge_confirmation_required: project.merge_confirmation_required === 1,
    verification: row.verification ? (JSON.parse(row.verification) as VerificationRecord) : null,
    last_error: row.last_error,
    events: await eventsOf(db, row.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** One orchestration, after moving it on if its agent has finished (a read shows the current state). */
export async function getOrchestration(engine: Kernel, actor: Actor, id: string): Promise<OrchestrationView> {
  await visibleOrchestration(engine.db, actor, id);
  await advanceAgent(engine, id);
  const { row, project } = await visibleOrchestration(engine.db, actor, id);
  return orchestrationView(engine.db, row, project);
}

/** The orchestrations the actor may act on, newest first. */
export async function listOrchestrations(engine: Kernel, actor: Actor): Promise<OrchestrationView[]> {
  const visible = await visibleOrchestrations(engine.db, actor);
  for (const { row } of visible) if (row.status === "AGENT_RUNNING") await advanceAgent(engine, row.id);
  const fresh = await visibleOrchestrations(engine.db, actor);
  return Promise.all(fresh.map(({ row, project }) => orchestrationView(engine.db, row, project)));
}
