import { sql, type Kysely, type Updateable } from "kysely";
import type { DB, Project } from "../schema.js";
import { writeTransaction, type Database } from "../database.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import { answerOf } from "../conversations/index.js";
import { parseSupervision } from "../protocol/index.js";
import {
  ACTIVE_STATUSES,
  RUN_TRANSITIONS,
  SELF_REPAIR_TRANSITIONS,
  STEP_TRANSITIONS,
  type Observation,
  type RunStatus,
  type SelfRepairStatus,
  type StepStatus,
} from "./machine.js";
import { guardFor } from "../stateMachine.js";
import type { StepWithProject } from "./prompts.js";
import type {
  RemediationRunsTable,
  RemediationSelfRepairsTable,
  RemediationStepRunsTable,
  RunRow,
  SelfRepairRow,
} from "./schema.js";

// The runs aggregate's queries, and only those. Every read the tick makes is an indexed lookup:
// runs by status, steps and events by run, items and messages by id.

/** A guarded write matched nothing: another process moved the run first. The transaction rolls back. */
export class LostRace extends Error {
  constructor(what: string) {
    super(`lost race on ${what}`);
  }
}

/**
 * For the run's transitions, whose every write must land: a guarded write that did not move (a
 * lost race, answered by the store) becomes a LostRace, and the caller's transaction rolls back.
 */
export async function mustMove(moved: Promise<boolean>, what: string): Promise<void> {
  if (!(await moved)) throw new LostRace(what);
}

/** The runs that hold the installation's slot (at most one, by a unique index). */
export function activeRuns(db: Kysely<DB>): Promise<RunRow[]> {
  return db
    .selectFrom("remediation_runs")
    .selectAll()
    .where("status", "in", [...ACTIVE_STATUSES])
    .execute();
}

/** One run by id. */
export function findRun(db: Kysely<DB>, id: string): Promise<RunRow | undefined> {
  return db.selectFrom("remediation_runs").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The most recent run an owner started (for status reads when none is active). */
export function latestRunOf(db: Kysely<DB>, ownerId: string): Promise<RunRow | undefined> {
  return db
    .selectFrom("remediation_runs")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The run's steps in plan order, with their projects' names and paths. */
export async function loadSteps(db: Kysely<DB>, runId: string): Promise<StepWithProject[]> {
  const rows = await db
    .selectFrom("remediation_step_runs as s")
    .leftJoin("projects as p", "p.id", "s.project_id")
    .selectAll("s")
    .select(["p.name as project_name", "p.path as project_path"])
    .where("s.run_id", "=", runId)
    .orderBy("s.position")
    .execute();
  return rows.map((r) => ({ ...r, project_name: r.project_name ?? "?", project_path: r.project_path ?? "" }));
}

/**
 * Moves a run, guarded on the status and active item it was read with: a second tick, or another
 * process that got there first, changes nothing. A status change is checked against the table by
 * `guardFor` (a move the table does not have is a defect of the processor: it throws); a write
 * that keeps the status is guarded on it all the same. Whether the row moved.
 */
export async function moveRun(
  trx: Kysely<DB>,
  run: Pick<RunRow, "id" | "status" | "active_queue_id">,
  set: Updateable<RemediationRunsTable>,
  now: number,
): Promise<boolean> {
  const to = set.status;
  const from =
    to && to !== run.status ? guardFor(`run ${run.id}`, RUN_TRANSITIONS, to, [run.status]) : [run.status];
  const u = await trx
    .updateTable("remediation_runs")
    .set({ ...set, updated_at: now })
    .where("id", "=", run.id)
    .where("status", "in", from)
    .where((eb) =>
      run.active_queue_id === null
        ? eb("active_queue_id", "is", null)
        : eb("active_queue_id", "=", run.active_queue_id),
    )
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Moves a step, guarded on the statuses it may leave (checked against the step's table). Whether it moved. */
export async function moveStep(
  trx: Kysely<DB>,
  stepRowId: string,
  from: readonly StepStatus[],
  set: Updateable<RemediationStepRunsTable> & { status: StepStatus },
  now: number,
): Promise<boolean> {
  const u = await trx
    .updateTable("remediation_step_runs")
    .set({ ...set, updated_at: now })
    .where("id", "=", stepRowId)
    .where("status", "in", guardFor("step", STEP_TRANSITIONS, set.status, from))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Moves a self-repair, guarded on its current status (checked against the self-repair's table). */
export async function moveRepair(
  trx: Kysely<DB>,
  id: string,
  from: SelfRepairStatus,
  set: Updateable<RemediationSelfRepairsTable> & { status: SelfRepairStatus },
  now: number,
): Promise<boolean> {
  const u = await trx
    .updateTable("remediation_self_repairs")
    .set({ ...set, updated_at: now })
    .where("id", "=", id)
    .where("status", "in", guardFor("self-repair", SELF_REPAIR_TRANSITIONS, set.status, [from]))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Appends to the run's history. */
export async function recordEvent(
  trx: Kysely<DB>,
  now: number,
  runId: string,
  stepId: string | null,
  kind: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await trx
    .insertInto("remediation_run_events")
    .values({ run_id: runId, step_id: stepId, kind, details: JSON.stringify(details), created_at: now })
    .execute();
}

/** The outbox event for a run's state change (the Slack thread shows the current state). */
export async function announce(
  trx: Kysely<DB>,
  now: number,
  runId: string,
  status: RunStatus,
  stage: string,
): Promise<void> {
  await emit(trx, now, { kind: "run.updated", runId, status, stage });
}

/**
 * Runs `fn` under the write lock on the run as it was read: when another process (or an earlier
 * tick) moved it meanwhile, nothing is written.
 */
export function lockRun<T>(
  db: Database,
  run: RunRow,
  fn: (trx: Kysely<DB>, fresh: RunRow) => Promise<T>,
): Promise<T> {
  // Global lock (PostgreSQL): the run engine's every step compares the whole run row, then writes steps and events.
  return writeTransaction(db, async (trx) => {
    const fresh = await findRun(trx, run.id);
    const same =
      fresh !== undefined &&
      (
        ["status", "stage", "active_queue_id", "self_repair_id", "blocked_stage", "correction_round"] as const
      ).every((k) => fresh[k] === run[k]);
    if (!same) throw new LostRace(`run ${run.id}`);
    return fn(trx, fresh);
  });
}

/** A self-repair by id. */
export function findRepair(db: Kysely<DB>, id: string | null): Promise<SelfRepairRow | undefined> {
  if (!id) return Promise.resolve(undefined);
  return db.selectFrom("remediation_self_repairs").selectAll().where("id", "=", id).executeTakeFirst();
}

/** How many self-repairs a run has had. */
export async function repairCount(db: Kysely<DB>, runId: string): Promise<number> {
  const { n } = await db
    .selectFrom("remediation_self_repairs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Inserts a self-repair row. */
export async function insertRepair(trx: Kysely<DB>, row: Omit<SelfRepairRow, "id">): Promise<string> {
  const id = newId();
  await trx
    .insertInto("remediation_self_repairs")
    .values({ id, ...row })
    .execute();
  return id;
}

/** The self project (role `self`); the literal lets SQLite use the partial unique index on role. */
export function findSelfProject(db: Kysely<DB>): Promise<Project | undefined> {
  return db
    .selectFrom("projects")
    .selectAll()
    .where("role", "<>", sql.lit("project"))
    .where("role", "=", "self")
    .executeTakeFirst();
}

/**
 * The master agent: the project with role `master`, else (as the seeds set it up) the one in the
 * `__global_agent__` execution group that is not the self project.
 */
export async function findMasterProject(db: Kysely<DB>): Promise<Project | undefined> {
  const byRole = await db
    .selectFrom("projects")
    .selectAll()
    .where("role", "<>", sql.lit("project"))
    .where("role", "=", "master")
    .executeTakeFirst();
  if (byRole) return byRole;
  return db
    .selectFrom("projects")
    .selectAll()
    .where("execution_group", "=", "__global_agent__")
    .where("role", "<>", "self")
    .orderBy("created_at")
    .executeTakeFirst();
}

/** A queue item as the run sees it. */
export interface ItemState {
  id: string;
  seq: number;
  conversation_id: string;
  status: string;
  error: string | null;
  error_code: string | null;
}

/** A queue item's state by id. */
export function itemState(db: Kysely<DB>, queueId: string | null): Promise<ItemState | undefined> {
  if (!queueId) return Promise.resolve(undefined);
  return db
    .selectFrom("prompt_queue")
    .select(["id", "seq", "conversation_id", "status", "error", "error_code"])
    .where("id", "=", queueId)
    .executeTakeFirst();
}

/** The latest item queued after `seq` in a conversation (a decision's answer, a specialist's result). */
export function laterItem(
  db: Kysely<DB>,
  conversationId: string,
  seq: number,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .where("seq", ">", seq)
    .where("status", "<>", "steered") // went into the turn the run already follows
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Whether the agent still waits on a person's decision or a specialist for this item. */
export async function waitsOnOthers(db: Kysely<DB>, queueId: string): Promise<boolean> {
  const decision = await db
    .selectFrom("decisions")
    .select("id")
    .where("queue_id", "=", queueId)
    .where("status", "=", "OPEN")
    .executeTakeFirst();
  if (decision) return true;
  const delegation = await db
    .selectFrom("specialist_delegations")
    .select("id")
    .where("source_queue_id", "=", queueId)
    .where("status", "in", ["PENDING", "RUNNING", "WAITING_CHILD"])
    .executeTakeFirst();
  return delegation !== undefined;
}

/** What an item came to, with the master's verdict when it answered. */
export async function observe(
  db: Kysely<DB>,
  item: ItemState | undefined,
  errorText: (item: ItemState) => string,
): Promise<Observation> {
  if (!item || item.status === "queued" || item.status === "running") return { state: "pending" };
  if (item.status === "done") {
    const answer = (await answerOf(db, item.id))?.content ?? "";
    return { state: "done", answer, verdict: parseSupervision(answer) };
  }
  return { state: "failed", interrupted: item.error_code === "interrupted", error: errorText(item) };
}
