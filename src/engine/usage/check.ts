import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.js";
import { t, type Locale } from "../../i18n/index.js";
import type { Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { EngineError } from "../errors.js";
import { emit } from "../outbox.js";
import { periodBounds, utcMinute } from "./periods.js";
import type { BudgetPeriod, BudgetScope } from "./schema.js";
import "./schema.js";

/**
 * Why a prompt was refused before it ran: which budget (scope, subject, period), its limit, what
 * was used in the period and when it resets. Front ends render it; schedules report it.
 */
export interface OverBudget {
  kind: "over-budget";
  scope: BudgetScope;
  /** The project's id or the user id. */
  subject: string;
  /** The project's name or the user id, as people name it. */
  name: string;
  period: BudgetPeriod;
  /** The limit, in tokens (input + output). */
  budget: number;
  /** Tokens used in the period so far. */
  used: number;
  /** When the period ends (epoch ms): new prompts run again from then. */
  resetsAt: number;
}

/**
 * The refusal of a prompt over budget: an EngineError (every front end already renders those, in
 * the reader's language: `reason.over_budget`) that carries the structured refusal as `refusal`.
 */
class OverBudgetError extends EngineError {
  constructor(readonly refusal: OverBudget) {
    super("forbidden", "over_budget", {
      scope: refusal.scope,
      name: refusal.name,
      period: refusal.period,
      budget: refusal.budget,
      used: refusal.used,
      resets: utcMinute(refusal.resetsAt),
    });
  }
}

/** Whether an error is a prompt refused over budget. */
export const isOverBudget = (e: unknown): e is OverBudgetError => e instanceof OverBudgetError;

/** What the checks need of the engine (a decision's answer has no more). */
type BudgetKernel = Pick<Kernel, "db" | "clock" | "config">;
/** What a check inside the caller's transaction needs: the time, and whom to alert. */
type BudgetCtx = Pick<Kernel, "clock"> & { config: { admins: readonly string[] } };

/** Who a prompt is charged to. */
export interface Chargee {
  projectId: string;
  projectName: string;
  person: string | null;
}

/** Tokens used by a project or a person since `since` (`db`: the handle, or the caller's transaction). */
export async function tokensUsedSince(db: Kysely<DB>, scope: BudgetScope, subject: string, since: number) {
  const column = scope === "project" ? "project_id" : "person";
  const row = await db
    .selectFrom("turn_usage")
    .select(sql<number>`coalesce(sum(input_tokens + output_tokens), 0)`.as("used"))
    .where(column, "=", subject)
    .where("finished_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** A budget found reached: the refusal, and the start of its period (the admins' alert key). */
interface Reached {
  refusal: OverBudget;
  periodStart: number;
}

/** The first budget of the project or the person that is reached now, if any: reads only. */
async function reachedBudget(engine: BudgetCtx, db: Kysely<DB>, chargee: Chargee): Promise<Reached | null> {
  const subjects: Array<{ scope: BudgetScope; subject: string; name: string }> = [
    { scope: "project", subject: chargee.projectId, name: chargee.projectName },
  ];
  if (chargee.person) subjects.push({ scope: "user", subject: chargee.person, name: chargee.person });
  const now = engine.clock.now();
  for (const s of subjects) {
    const row = await db
      .selectFrom("budgets")
      .select(["daily_tokens", "monthly_tokens"])
      .where("scope", "=", s.scope)
      .where("subject", "=", s.subject)
      .executeTakeFirst();
    if (!row) continue;
    const limits: Array<[BudgetPeriod, number | null]> = [
      ["daily", row.daily_tokens],
      ["monthly", row.monthly_tokens],
    ];
    for (const [period, budget] of limits) {
      if (budget === null) continue;
      const { start, resetsAt } = periodBounds(period, now);
      const used = await tokensUsedSince(db, s.scope, s.subject, start);
      if (used < budget) continue;
      return { refusal: { kind: "over-budget", ...s, period, budget, used, resetsAt }, periodStart: start };
    }
  }
  return null;
}

/**
 * Refuses a new turn when a budget of its project or its person is reached (OverBudgetError),
 * after telling the admins once per budget and period. Called before anything is queued, outside
 * any transaction (the admins' alert is a write of its own); a turn already running is never
 * stopped (it may take its period past the limit: the next one waits).
 */
export async function assertWithinBudget(engine: BudgetKernel, chargee: Chargee): Promise<void> {
  const reached = await reachedBudget(engine, engine.db, chargee);
  if (!reached) return;
  await writeTransaction(engine.db, (trx) => alertAdminsOnceIn(trx, engine, reached), { locks: [] });
  throw new OverBudgetError(reached.refusal);
}

/**
 * The same check for work the engine queues by itself inside a write transaction (a run's next
 * step, a delegation): the refusal is returned for the caller to record (a blocked run, a failed
 * delegation) rather than thrown, and the admins' alert is written in the same transaction.
 */
export async function budgetRefusalIn(
  trx: Kysely<DB>,
  engine: BudgetCtx,
  chargee: Chargee,
): Promise<OverBudget | null> {
  const reached = await reachedBudget(engine, trx, chargee);
  if (!reached) return null;
  await alertAdminsOnceIn(trx, engine, reached);
  return reached.refusal;
}

/** Who a turn in a project is charged to, the project's name read for the refusal's wording. */
export async function chargeeOf(db: Kysely<DB>, projectId: string, person: string | null): Promise<Chargee> {
  const project = await db
    .selectFrom("projects")
    .select("name")
    .where("id", "=", projectId)
    .executeTakeFirstOrThrow();
  return { projectId, projectName: project.name, person };
}

/**
 * The one check every use case that queues a turn calls before it queues (docs/usage-and-budgets.md
 * lists them): the budgets of the turn's project and of the person it is charged to.
 */
export async function assertChargeable(
  engine: BudgetKernel,
  projectId: string,
  person: string | null,
): Promise<void> {
  await assertWithinBudget(engine, await chargeeOf(engine.db, projectId, person));
}

/** The refusal as people read it in a thread or a run's history, in `locale`. */
export function overBudgetText(locale: Locale, refusal: OverBudget): string {
  return t(locale, "reason.over_budget", new OverBudgetError(refusal).params);
}

/**
 * One notice per admin the first time a budget is found reached in a period: the alert row's key
 * (scope, subject, period, period start) makes it once across refusals, restarts and processes.
 */
async function alertAdminsOnceIn(trx: Kysely<DB>, engine: BudgetCtx, reached: Reached): Promise<void> {
  const { refusal: r, periodStart } = reached;
  const now = engine.clock.now();
  const inserted = await trx
    .insertInto("budget_alerts")
    .values({
      scope: r.scope,
      subject: r.subject,
      period: r.period,
      period_start: periodStart,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(["scope", "subject", "period", "period_start"]).doNothing())
    .returning("scope")
    .executeTakeFirst();
  if (!inserted) return;
  const { kind: _, subject: __, ...facts } = r;
  await emit(
    trx,
    now,
    ...engine.config.admins.map((admin) => ({
      kind: "budget.reached" as const,
      admin,
      ...facts,
      periodStart,
    })),
  );
}
