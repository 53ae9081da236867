import { sql } from "kysely";
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

/** Who a prompt is charged to. */
export interface Chargee {
  projectId: string;
  projectName: string;
  person: string | null;
}

/** Tokens used by a project or a person since `since`. */
export async function tokensUsedSince(engine: Kernel, scope: BudgetScope, subject: string, since: number) {
  const column = scope === "project" ? "project_id" : "person";
  const row = await engine.db
    .selectFrom("turn_usage")
    .select(sql<number>`coalesce(sum(input_tokens + output_tokens), 0)`.as("used"))
    .where(column, "=", subject)
    .where("finished_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/**
 * Refuses a new turn when a budget of its project or its person is reached (OverBudgetError),
 * after telling the admins once per budget and period. Called before anything is queued; a turn
 * already running is never stopped (it may take its period past the limit: the next one waits).
 */
export async function assertWithinBudget(engine: Kernel, chargee: Chargee): Promise<void> {
  const subjects: Array<{ scope: BudgetScope; subject: string; name: string }> = [
    { scope: "project", subject: chargee.projectId, name: chargee.projectName },
  ];
  if (chargee.person) subjects.push({ scope: "user", subject: chargee.person, name: chargee.person });
  const now = engine.clock.now();
  for (const s of subjects) {
    const row = await engine.db
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
      const used = await tokensUsedSince(engine, s.scope, s.subject, start);
      if (used < budget) continue;
      const refusal: OverBudget = { kind: "over-budget", ...s, period, budget, used, resetsAt };
      await tellAdminsOnce(engine, refusal, start);
      throw new OverBudgetError(refusal);
    }
  }
}

/**
 * One notice per admin the first time a budget is found reached in a period: the alert row's key
 * (scope, subject, period, period start) makes it once across refusals, restarts and processes.
 */
async function tellAdminsOnce(engine: Kernel, r: OverBudget, periodStart: number): Promise<void> {
  const now = engine.clock.now();
  await writeTransaction(
    engine.db,
    async (trx) => {
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
    },
    { locks: [] },
  );
}
