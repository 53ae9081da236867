import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { type Actor, assertAdmin, findProjectByName } from "../projects/index.js";
import type { BudgetScope } from "./schema.js";
import { tokensUsedSince } from "./check.js";
import { periodBounds } from "./periods.js";
import "./schema.js";

/** A budget's limits in tokens (input + output) per UTC day and month; null: no limit. */
export interface BudgetLimits {
  daily: number | null;
  monthly: number | null;
}

/** Whom a budget is for: a project (by name, as people name it) or a Slack user. */
export interface BudgetTarget {
  scope: BudgetScope;
  /** A project's name, or a Slack user id. */
  name: string;
}

/** A budget as listed: its subject, the name people know it by, its limits. */
export interface BudgetView {
  scope: BudgetScope;
  subject: string;
  /** The project's name, or the user id. */
  name: string;
  limits: BudgetLimits;
  /** Tokens used in the current UTC day and month. */
  used: { daily: number; monthly: number };
  updatedBy: string | null;
  updatedAt: number;
}

/**
 * What a budget change did (set or clear): the audit trail's record of it. The coordinator wires
 * `recordAudit` on this value; nothing else is needed to describe the change.
 */
export interface BudgetChange {
  action: "budget.set" | "budget.clear";
  actor: string;
  scope: BudgetScope;
  subject: string;
  name: string;
  before: BudgetLimits | null;
  after: BudgetLimits | null;
  at: number;
}

const isLimit = (v: number | null | undefined) =>
  v === null || v === undefined || (Number.isSafeInteger(v) && v > 0);

async function subjectOf(engine: Kernel, target: BudgetTarget): Promise<{ subject: string; name: string }> {
  if (target.scope === "user") return { subject: target.name, name: target.name };
  const project = await findProjectByName(engine.db, target.name);
  if (!project) throw new EngineError("not_found", "project_not_found", { name: target.name });
  return { subject: project.id, name: project.name };
}

async function current(engine: Kernel, scope: BudgetScope, subject: string): Promise<BudgetLimits | null> {
  const row = await engine.db
    .selectFrom("budgets")
    .select(["daily_tokens", "monthly_tokens"])
    .where("scope", "=", scope)
    .where("subject", "=", subject)
    .executeTakeFirst();
  return row ? { daily: row.daily_tokens, monthly: row.monthly_tokens } : null;
}

/**
 * Sets a budget (admins): the limits given replace those of the same period; a period not given
 * keeps its limit. Returns the change (the audit trail's record).
 */
export async function setBudget(
  engine: Kernel,
  actor: Actor,
  target: BudgetTarget,
  limits: Partial<BudgetLimits>,
): Promise<BudgetChange> {
  assertAdmin(actor);
  if (!isLimit(limits.daily) || !isLimit(limits.monthly) || (limits.daily == null && limits.monthly == null))
    throw new EngineError("invalid", "budget_invalid");
  const { subject, name } = await subjectOf(engine, target);
  const before = await current(engine, target.scope, subject);
  const after: BudgetLimits = {
    daily: limits.daily === undefined ? (before?.daily ?? null) : limits.daily,
    monthly: limits.monthly === undefined ? (before?.monthly ?? null) : limits.monthly,
  };
  const at = engine.clock.now();
  const row = {
    daily_tokens: after.daily,
    monthly_tokens: after.monthly,
    updated_by: actor.userId,
    updated_at: at,
  };
  await engine.db
    .insertInto("budgets")
    .values({ scope: target.scope, subject, ...row })
    .onConflict((oc) => oc.columns(["scope", "subject"]).doUpdateSet(row))
    .execute();
  return { action: "budget.set", actor: actor.userId, scope: target.scope, subject, name, before, after, at };
}

/** Removes a budget (admins); not_found when there is none. Returns the change. */
export async function clearBudget(engine: Kernel, actor: Actor, target: BudgetTarget): Promise<BudgetChange> {
  assertAdmin(actor);
  const { subject, name } = await subjectOf(engine, target);
  const before = await current(engine, target.scope, subject);
  if (!before) throw new EngineError("not_found", "budget_not_found", { name });
  await engine.db
    .deleteFrom("budgets")
    .where("scope", "=", target.scope)
    .where("subject", "=", subject)
    .execute();
  const at = engine.clock.now();
  return {
    action: "budget.clear",
    actor: actor.userId,
    scope: target.scope,
    subject,
    name,
    before,
    after: null,
    at,
  };
}

/** Every budget (admins), projects first. */
export async function listBudgets(engine: Kernel, actor: Actor): Promise<BudgetView[]> {
  assertAdmin(actor);
  return allBudgets(engine);
}

/** Every budget with its subject's name (no rights check: metrics and the check itself read it). */
export async function allBudgets(engine: Kernel): Promise<BudgetView[]> {
  const rows = await engine.db
    .selectFrom("budgets")
    .leftJoin("projects", (j) =>
      j.onRef("projects.id", "=", "budgets.subject").on("budgets.scope", "=", "project"),
    )
    .select([
      "budgets.scope",
      "budgets.subject",
      "budgets.daily_tokens",
      "budgets.monthly_tokens",
      "budgets.updated_by",
      "budgets.updated_at",
      "projects.name as project_name",
    ])
    .orderBy("budgets.scope")
    .orderBy("budgets.subject")
    .execute();
  const now = engine.clock.now();
  const used = (scope: BudgetScope, subject: string) =>
    Promise.all(
      (["daily", "monthly"] as const).map((p) =>
        tokensUsedSince(engine.db, scope, subject, periodBounds(p, now).start),
      ),
    );
  const views: BudgetView[] = [];
  for (const r of rows) {
    const [daily = 0, monthly = 0] = await used(r.scope, r.subject);
    views.push({
      scope: r.scope,
      subject: r.subject,
      name: r.project_name ?? r.subject,
      limits: { daily: r.daily_tokens, monthly: r.monthly_tokens },
      used: { daily, monthly },
      updatedBy: r.updated_by,
      updatedAt: r.updated_at,
    });
  }
  return views;
}
