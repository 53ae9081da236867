import type { Kernel } from "../kernel.js";
import { t } from "../../i18n/index.js";
import { finishSelfClone } from "../workspaces/index.js";
import { decide, type WorkStage } from "./machine.js";
import { blockIn, catchUpIn, settleRepairIn } from "./repair.js";
import type { RunRow } from "./schema.js";
import {
  activeRuns,
  findRepair,
  itemState,
  laterItem,
  loadSteps,
  lockRun,
  LostRace,
  observe,
  recordEvent,
  waitsOnOthers,
} from "./store.js";
import { applyAction, type RunCtx } from "./transitions.js";
import { failureText } from "../../i18n/failures.js";
import { budgetRefusalIn, chargeeOf, overBudgetText } from "../usage/index.js";

// The runs' tick step: advances the active run by what its active item came to, settles its
// self-repair, and catches up runs an older version blocked. With no active run it costs one
// indexed lookup of runs by status.

/** What one tick did to the runs (SPEC's states; `idle`: nothing to do). */
export type RunTickResult =
  | { state: "idle" }
  | { state: "processed" | "blocked" | "self_repair_processed"; run_id: string }
  | { state: "self_repair_recovered"; run_id: string; blocked_stage: WorkStage };

/** Seams of the run processor; tests make it crash with `beforeProcess` (S-RUN-12). */
export interface RunOptions {
  /** Called with each RUNNING run before it is advanced; a throw counts as a processor crash. */
  beforeProcess?: (run: RunRow) => void | Promise<void>;
}

const optionsByEngine = new WeakMap<Kernel, RunOptions>();

/** Sets the run processor's options for an engine (its registered tick step uses them too). */
export function configureRuns(engine: Kernel, options: RunOptions): void {
  optionsByEngine.set(engine, options);
}

const RANK = {
  idle: 0,
  processed: 1,
  self_repair_processed: 2,
  self_repair_recovered: 3,
  blocked: 4,
} as const;
const IDLE: RunTickResult = { state: "idle" };

/** One pass over the active runs (there is at most one); the most telling state wins. */
export async function runTick(
  engine: Kernel,
  options: RunOptions = optionsByEngine.get(engine) ?? {},
): Promise<RunTickResult> {
  let result = IDLE;
  for (const run of await activeRuns(engine.db)) {
    const r = await lostRaceIsIdle(
      run.status === "RUNNING" ? processRunning(engine, run, options) : processBlocked(engine, run),
    );
    if (RANK[r.state] > RANK[result.state]) result = r;
  }
  return result;
}

const lostRaceIsIdle = (p: Promise<RunTickResult>): Promise<RunTickResult> =>
  p.catch((err: unknown) => (err instanceof LostRace ? IDLE : Promise.reject(err)));
const ctxOf = (engine: Kernel): RunCtx => ({
  clock: engine.clock,
  locale: engine.config.locale,
  dataDir: engine.config.dataDir,
  admins: engine.config.admins,
});

/**
 * A RUNNING run: anything unexpected while advancing it (the processor's own defect, a bad row)
 * blocks it with the exception's message and sends it to self-repair, instead of failing every
 * tick silently (S-RUN-12).
 */
async function processRunning(engine: Kernel, run: RunRow, options: RunOptions): Promise<RunTickResult> {
  try {
    await options.beforeProcess?.(run);
    return await advance(engine, run);
  } catch (err) {
    if (err instanceof LostRace) throw err;
    const message = err instanceof Error ? err.message : String(err);
    engine.logger.error({ err, runId: run.id }, "run processor crashed; blocking the run");
    await lockRun(engine.db, run, async (trx, fresh) =>
      blockIn(trx, ctxOf(engine), fresh, await loadSteps(trx, run.id), { code: "crash", error: message }),
    );
    return { state: "blocked", run_id: run.id };
  }
}

async function advance(engine: Kernel, run: RunRow): Promise<RunTickResult> {
  const { db } = engine;
  const item = await itemState(db, run.active_queue_id);
  const locale = engine.config.locale;
  const obs = await observe(
    db,
    item,
    (i) => failureText(locale, i.error) || t(locale, "run.error.item_failed", { status: i.status }),
  );
  if (obs.state === "done" && item) {
    // The agent asked a person or a specialist: the conversation goes on, and the run follows it.
    const later = await laterItem(db, item.conversation_id, item.seq);
    if (later) {
      await lockRun(db, run, async (trx, fresh) => {
        const now = engine.clock.now();
        await trx
          .updateTable("remediation_runs")
          .set({ active_queue_id: later.id, updated_at: now })
          .where("id", "=", fresh.id)
          .where("active_queue_id", "=", item.id)
          .execute();
        await recordEvent(trx, now, run.id, run.current_step_id, "run.followed", {
          from_queue_id: item.id,
          queue_id: later.id,
        });
      });
      return { state: "processed", run_id: run.id };
    }
    if (await waitsOnOthers(db, item.id)) return IDLE;
  }
  const steps = await loadSteps(db, run.id);
  const current = steps.find((s) => s.step_id === run.current_step_id);
  const action = decide(
    {
      stage: run.stage,
      correctionRound: run.correction_round,
      reviewRestarts: run.review_restarts,
      hasNextStep: steps.some((s) => s.status === "PENDING" && s.id !== current?.id),
    },
    obs,
  );
  if (action.kind === "wait") return IDLE;
  const blocked = await lockRun(db, run, async (trx, fresh) => {
    if (action.kind === "block") {
      await blockIn(trx, ctxOf(engine), fresh, steps, {
        code: action.code,
        error: action.error,
        verdict: action.verdict,
      });
      return true;
    }
    // The next stage's turn is charged to the run's owner in the project it runs in: over budget
    // the run blocks with the reason (resumed once the budget allows) rather than queue it.
    const project = turnProjectOf(fresh, steps, action);
    const refusal = project
      ? await budgetRefusalIn(trx, engine, await chargeeOf(trx, project, fresh.owner_id))
      : null;
    if (refusal) {
      await blockIn(trx, ctxOf(engine), fresh, steps, {
        code: "over_budget",
        error: overBudgetText(engine.config.locale, refusal),
      });
      return true;
    }
    await applyAction(trx, ctxOf(engine), fresh, steps, action);
    return false;
  });
  return { state: blocked ? "blocked" : "processed", run_id: run.id };
}

/** The project whose agent the action's next turn runs in (the master's for reviews); none to complete. */
function turnProjectOf(
  run: RunRow,
  steps: ReadonlyArray<{ id: string; step_id: string; status: string; project_id: string }>,
  action: { kind: string },
): string | null {
  const current = steps.find((s) => s.step_id === run.current_step_id);
  switch (action.kind) {
    case "start_next_step":
      return steps.find((s) => s.status === "PENDING" && s.id !== current?.id)?.project_id ?? null;
    case "request_correction":
      return current?.project_id ?? null;
    case "complete":
      return null;
    default:
      return run.master_project_id;
  }
}

/** A BLOCKED run: a legacy block is caught up; a finished self-repair is settled. */
async function processBlocked(engine: Kernel, run: RunRow): Promise<RunTickResult> {
  const { db } = engine;
  if (run.blocked_stage === null) {
    const { stage, repairId } = await lockRun(db, run, async (trx, fresh) =>
      catchUpIn(trx, ctxOf(engine), fresh, await loadSteps(trx, run.id)),
    );
    return repairId
      ? { state: "self_repair_recovered", run_id: run.id, blocked_stage: stage }
      : { state: "processed", run_id: run.id };
  }
  const repair = await findRepair(db, run.self_repair_id);
  if (repair?.status !== "RUNNING") return IDLE;
  const item = await itemState(db, repair.queue_id);
  if (!item || item.status === "queued" || item.status === "running") return IDLE;
  // The repair's work is committed on its clone's branch first (git, never inside the transaction).
  const report = await finishSelfClone(engine, repair.conversation_id);
  await lockRun(db, run, async (trx, fresh) =>
    settleRepairIn(trx, ctxOf(engine), fresh, await loadSteps(trx, run.id), repair, item, report),
  );
  return { state: "self_repair_processed", run_id: run.id };
}
