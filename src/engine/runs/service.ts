import type { Kysely } from "kysely";
import { runUseCase, withEffects, type Kernel } from "../kernel.js";
import type { DB, Project } from "../schema.js";
import { uniqueViolationOf, writeTransaction, type OnCreated } from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { createConversation, enqueueIn } from "../conversations/index.js";
import { canSee, SPECIALIST_GROUP, type Actor } from "../projects/index.js";
import { t } from "../../i18n/index.js";
import { assertChargeable } from "../usage/index.js";
import { canRun, canSelfRepair, type BlockCode } from "./machine.js";
import { checkRebase, parsePlan, resolveTargets, type Candidate, type ResolvedStep } from "./plan.js";
import { planReviewPrompt } from "./prompts.js";
import { blockIn } from "./repair.js";
import type { RunRow } from "./schema.js";
import {
  activeRuns,
  announce,
  findMasterProject,
  findRepair,
  itemState,
  latestRunOf,
  loadSteps,
  moveRepair,
  moveRun,
  mustMove,
  recordEvent,
} from "./store.js";
import { resumeIn, type RunCtx } from "./transitions.js";
import { runDetail, type RunDetail, type RunStatusView } from "./view.js";

// The run's use cases as the user interface (Slack, CLI) calls them. The owner (who started it)
// and admins may act on a run; anyone else is told it does not exist. Starting, resuming, revising
// and cancelling also need to see the master and every project of the plan (DESIGN "Runs"): the
// master agent, often with full access, works from the run's text.

const ctxOf = (engine: Kernel): RunCtx => ({
  clock: engine.clock,
  locale: engine.config.locale,
  dataDir: engine.config.dataDir,
  admins: engine.config.admins,
});
const canDrive = (actor: Actor, run: Pick<RunRow, "owner_id">) =>
  actor.isAdmin || run.owner_id === actor.userId;

/** Refuses unless the actor sees every one of these projects (or is an admin); never names one. */
function assertSeesAll(actor: Actor, projects: ReadonlyArray<Pick<Project, "owner_id"> | undefined>): void {
  if (actor.isAdmin) return;
  if (projects.every((p) => p !== undefined && canSee(actor, p))) return;
  throw new EngineError("not_found", "run_projects_not_found");
}

/** The master and every project the run's steps target, as they are now (owners may have changed). */
async function projectsOfRun(
  db: Kysely<DB>,
  run: Pick<RunRow, "id" | "master_project_id">,
): Promise<Array<Pick<Project, "owner_id"> | undefined>> {
  const steps = await db
    .selectFrom("remediation_step_runs")
    .select("project_id")
    .where("run_id", "=", run.id)
    .execute();
  const ids = [...new Set([run.master_project_id, ...steps.map((s) => s.project_id)])];
  const rows = await db.selectFrom("projects").select(["id", "owner_id"]).where("id", "in", ids).execute();
  // A project removed since the run started counts as one the actor cannot see.
  return ids.map((id) => rows.find((r) => r.id === id));
}

/** Projects a plan may target for this person: theirs (or shared), never the master, self or specialists. */
async function candidatesFor(
  db: Kysely<DB>,
  actor: Actor,
): Promise<Array<Candidate & Pick<Project, "owner_id">>> {
  const all = await db
    .selectFrom("projects")
    .select(["id", "name", "owner_id", "role", "execution_group"])
    .execute();
  return all.filter(
    (p) =>
      p.role === "project" &&
      p.execution_group !== "__global_agent__" &&
      p.execution_group !== SPECIALIST_GROUP &&
      canSee(actor, p),
  );
}

async function detailOrThrow(db: Kysely<DB>, runId: string): Promise<RunDetail> {
  const d = await runDetail(db, runId);
  if (!d) throw new EngineError("not_found", "run_not_found");
  return d;
}

/**
 * Starts the installation's autonomous run (S-RUN-14): validates the plan and resolves its targets
 * among the actor's projects, then the master reviews the plan in a new conversation.
 * Refused while another run is RUNNING or BLOCKED (S-RUN-02).
 */
export async function startRun(
  engine: Kernel,
  actor: Actor,
  plan: unknown,
  opts: { onCreated?: OnCreated } = {},
): Promise<RunDetail> {
  const id = await runUseCase(engine, async () => {
    const { db } = engine;
    const ctx = ctxOf(engine);
    const master = await findMasterProject(db);
    if (!master) throw new EngineError("unavailable", "run_no_master");
    // Before the plan is even read: its text goes to the master's agent.
    assertSeesAll(actor, [master]);
    const candidates = await candidatesFor(db, actor);
    const steps: ResolvedStep[] = resolveTargets(parsePlan(plan), candidates);
    assertSeesAll(
      actor,
      steps.map((s) => candidates.find((c) => c.id === s.projectId)),
    );
    // The master's plan review is the run's first turn, charged to its owner.
    await assertChargeable(engine, master.id, actor.userId);
    // Global lock (PostgreSQL): "one active run" is a read-then-insert with no unique index behind it.
    const runId = await writeTransaction(db, (trx) =>
      createRunIn(trx, ctx, actor, { master, steps, onCreated: opts.onCreated }),
    ).catch((err: unknown) => {
      // The unique index on the active slot: another process started one at the same moment.
      if (/uq_remediation_runs_active/.test(uniqueViolationOf(err) ?? ""))
        throw new EngineError("conflict", "run_active", {}, { cause: err });
      throw err;
    });
    return withEffects(runId, { dispatch: true });
  });
  return detailOrThrow(engine.db, id);
}

/**
 * In the start's transaction: refused while a run is active; else the run, its steps, and the
 * master's plan review queued in a new conversation. Returns the run's id.
 */
async function createRunIn(
  trx: Kysely<DB>,
  ctx: RunCtx,
  actor: Actor,
  start: { master: Project; steps: ResolvedStep[]; onCreated?: OnCreated },
): Promise<string> {
  const { clock } = ctx;
  const { master, steps } = start;
  if ((await activeRuns(trx)).length > 0) throw new EngineError("conflict", "run_active");
  const now = clock.now();
  const id = newId();
  const conversation = await createConversation(
    trx,
    clock,
    master.id,
    t(ctx.locale, "run.master_title"),
    actor.userId,
  );
  await insertRun(trx, now, {
    id,
    ownerId: actor.userId,
    steps,
    master,
    conversationId: conversation.id,
  });
  await start.onCreated?.(trx, id);
  await insertSteps(trx, now, id, steps);
  const item = await enqueueIn(
    trx,
    clock,
    conversation.id,
    planReviewPrompt(ctx.locale, await loadSteps(trx, id)),
    { origin: "run_stage", requestedBy: actor.userId },
  );
  await trx.updateTable("remediation_runs").set({ active_queue_id: item.id }).where("id", "=", id).execute();
  await recordEvent(trx, now, id, null, "run.started", {
    steps: steps.length,
    master_project_id: master.id,
    by: actor.userId,
  });
  await announce(trx, now, id, "RUNNING", "PLAN_REVIEW");
  return id;
}

/** The run's row as it starts: RUNNING, in plan review, the plan frozen as resolved. */
async function insertRun(
  trx: Kysely<DB>,
  now: number,
  run: {
    id: string;
    ownerId: string;
    steps: ResolvedStep[];
    master: Project;
    conversationId: string;
  },
): Promise<void> {
  await trx
    .insertInto("remediation_runs")
    .values({
      id: run.id,
      owner_id: run.ownerId,
      status: "RUNNING",
      stage: "PLAN_REVIEW",
      plan: JSON.stringify(run.steps),
      master_project_id: run.master.id,
      master_conversation_id: run.conversationId,
      current_step_id: null,
      active_queue_id: null,
      self_repair_id: null,
      correction_round: 0,
      review_restarts: 0,
      blocked_stage: null,
      block_code: null,
      error: null,
      final_report: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .execute();
}

/** One PENDING row per resolved step, in the plan's order. */
async function insertSteps(
  trx: Kysely<DB>,
  now: number,
  runId: string,
  steps: ResolvedStep[],
): Promise<void> {
  await trx
    .insertInto("remediation_step_runs")
    .values(
      steps.map((s) => ({
        id: newId(),
        run_id: runId,
        step_id: s.id,
        position: s.order,
        phase: s.phase,
        phase_label: s.phaseLabel,
        title: s.title,
        summary: s.summary,
        risk: s.risk,
        target: s.target,
        aliases: JSON.stringify(s.aliases),
        project_id: s.projectId,
        prompt: s.prompt,
        status: "PENDING" as const,
        conversation_id: null,
        queue_id: null,
        attempts: 0,
        feedback: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })),
    )
    .execute();
}

/** The run the actor sees: the active one if theirs (or they are an admin), else their latest; NOT_STARTED before any. */
export async function runStatus(engine: Kernel, actor: Actor): Promise<RunStatusView> {
  const active = (await activeRuns(engine.db)).find((r) => canDrive(actor, r));
  const run = active ?? (await latestRunOf(engine.db, actor.userId));
  return run ? detailOrThrow(engine.db, run.id) : { status: "NOT_STARTED" };
}

/** One run's detail, for its owner or an admin. */
export async function getRun(engine: Kernel, actor: Actor, runId: string): Promise<RunDetail> {
  const d = await runDetail(engine.db, runId);
  if (!d || !canDrive(actor, d)) throw new EngineError("not_found", "run_not_found");
  return d;
}

async function activeRunFor(db: Kysely<DB>, actor: Actor, runId?: string): Promise<RunRow> {
  const run = (await activeRuns(db)).find((r) => canDrive(actor, r) && (!runId || r.id === runId));
  if (!run) throw new EngineError("not_found", "run_not_found");
  return run;
}

/** The active run the actor may act on: theirs (any, for an admin), and they see all its projects. */
async function drivableRun(db: Kysely<DB>, actor: Actor, runId?: string): Promise<RunRow> {
  const run = await activeRunFor(db, actor, runId);
  assertSeesAll(actor, await projectsOfRun(db, run));
  return run;
}

/** The BLOCKED run the actor may revise (the revise form shows its plan), after the same checks as resumeRun. */
export async function revisableRun(engine: Kernel, actor: Actor, runId?: string): Promise<RunDetail> {
  const run = await drivableRun(engine.db, actor, runId);
  if (!canRun(run.status, "revise")) throw new EngineError("conflict", "run_not_blocked");
  return detailOrThrow(engine.db, run.id);
}

/**
 * The owner (or an admin) who sees all its projects resumes a BLOCKED run, optionally with a
 * revised plan that may change prompts only (S-RUN-04/05); a self-repair still running or waiting
 * on the owner is superseded.
 */
export async function resumeRun(
  engine: Kernel,
  actor: Actor,
  opts: { plan?: unknown; runId?: string } = {},
): Promise<RunDetail> {
  const id = await runUseCase(engine, async () => {
    const { db, clock } = engine;
    const ctx = ctxOf(engine);
    const run = await drivableRun(db, actor, opts.runId);
    if (!canRun(run.status, "resume")) throw new EngineError("conflict", "run_not_blocked");
    await assertResumable(engine, run);
    const revised =
      opts.plan === undefined
        ? null
        : resolveTargets(
            parsePlan(opts.plan),
            await candidatesFor(db, { userId: run.owner_id, isAdmin: false }),
          );
    // Global lock (PostgreSQL): a person's resume rewrites the run's steps after reading them; rare.
    const stopRepair = await writeTransaction(db, async (trx) => {
      const fresh = await activeRunFor(trx, actor, run.id);
      if (!canRun(fresh.status, "resume")) throw new EngineError("conflict", "run_not_blocked");
      const now = clock.now();
      let steps = await loadSteps(trx, run.id);
      if (revised) {
        checkRebase(
          steps.map((s) => ({
            stepId: s.step_id,
            position: s.position,
            projectId: s.project_id,
            risk: s.risk,
          })),
          revised,
        );
        for (const [i, r] of revised.entries()) {
          const s = steps[i]!;
          await trx
            .updateTable("remediation_step_runs")
            .set({
              prompt: r.prompt,
              title: r.title,
              summary: r.summary,
              phase: r.phase,
              phase_label: r.phaseLabel,
              updated_at: now,
            })
            .where("id", "=", s.id)
            .execute();
        }
        steps = await loadSteps(trx, run.id);
      }
      const repair = await findRepair(trx, fresh.self_repair_id);
      let superseded: string | null = null;
      if (
        repair &&
        canSelfRepair(repair.status, "supersede") &&
        (await moveRepair(trx, repair.id, repair.status, { status: "SUPERSEDED", finished_at: now }, now))
      ) {
        await recordEvent(trx, now, run.id, repair.step_id, "self_repair.owner_resolved", {
          self_repair_id: repair.id,
          by: actor.userId,
        });
        if (repair.status === "RUNNING") superseded = repair.conversation_id;
      }
      await resumeIn(trx, ctx, fresh, steps, {
        kind: "run.resumed",
        details: { by: actor.userId, plan_rebased: revised !== null },
      });
      return superseded;
    });
    // A superseded repair's agent has nothing left to do: stopped before the dispatch.
    return withEffects(run.id, {
      stop: stopRepair ? [stopRepair] : [],
      dispatch: true,
    });
  });
  return detailOrThrow(engine.db, id);
}

/**
 * A resume (revised or not) queues the blocked stage again, charged to the run's owner: the
 * master's project and the current step's are checked (later steps are checked as the run's
 * tick reaches them, see transitions.ts).
 */
async function assertResumable(engine: Kernel, run: RunRow): Promise<void> {
  await assertChargeable(engine, run.master_project_id, run.owner_id);
  if (!run.current_step_id) return;
  const step = await engine.db
    .selectFrom("remediation_step_runs")
    .select("project_id")
    .where("run_id", "=", run.id)
    .where("step_id", "=", run.current_step_id)
    .executeTakeFirst();
  if (step && step.project_id !== run.master_project_id)
    await assertChargeable(engine, step.project_id, run.owner_id);
}

/** The owner (or an admin) who sees all its projects cancels the active run; its agents are stopped. */
export async function cancelRun(engine: Kernel, actor: Actor, runId?: string): Promise<RunDetail> {
  const id = await runUseCase(engine, async () => {
    const { db, clock } = engine;
    const run = await drivableRun(db, actor, runId);
    // Global lock (PostgreSQL): a person's cancel reads the run and its repair, then moves both; rare.
    const toStop = await writeTransaction(db, async (trx) => {
      const fresh = await activeRunFor(trx, actor, run.id);
      const now = clock.now();
      const repair = await findRepair(trx, fresh.self_repair_id);
      const stops: string[] = [];
      if (
        repair &&
        canSelfRepair(repair.status, "supersede") &&
        (await moveRepair(trx, repair.id, repair.status, { status: "SUPERSEDED", finished_at: now }, now))
      ) {
        if (repair.status === "RUNNING") stops.push(repair.conversation_id);
      }
      const active = await itemState(trx, fresh.active_queue_id);
      if (active && (active.status === "queued" || active.status === "running"))
        stops.push(active.conversation_id);
      await mustMove(
        moveRun(trx, fresh, { status: "CANCELLED", stage: "IDLE", finished_at: now }, now),
        `run ${fresh.id}`,
      );
      await recordEvent(trx, now, run.id, null, "run.cancelled", { by: actor.userId });
      await announce(trx, now, run.id, "CANCELLED", "IDLE");
      return stops;
    });
    return withEffects(run.id, { stop: toStop });
  });
  return detailOrThrow(engine.db, id);
}

/**
 * The engine's internal block (the seed's `_block`), also a seam for tests (S-RUN-11): blocks a
 * RUNNING run where it stands, with a code saying why, and sends it to self-repair.
 */
export async function blockRun(
  engine: Kernel,
  runId: string,
  error: string,
  opts: { code?: BlockCode; stepId?: string } = {},
): Promise<RunDetail> {
  const id = await runUseCase(engine, async () => {
    // Global lock (PostgreSQL): blocks the active run after reading it and its steps; rare.
    await writeTransaction(engine.db, async (trx) => {
      const run = (await activeRuns(trx)).find((r) => r.id === runId);
      if (!run || !canRun(run.status, "block")) throw new EngineError("not_found", "run_not_found");
      await blockIn(trx, ctxOf(engine), run, await loadSteps(trx, runId), {
        code: opts.code ?? "item_failed",
        error,
        stepId: opts.stepId ?? null,
      });
    });
    return withEffects(runId, { dispatch: true });
  });
  return detailOrThrow(engine.db, id);
}
