import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import {
  type BudgetChange,
  type BudgetLimits,
  type BudgetTarget,
  type BudgetView,
  type UsageReport,
  clearBudget,
  listBudgets,
  setBudget,
  usageReport,
} from "../usage/index.js";

/**
 * Usage and budgets (issue 21): the report people read, and the budgets admins set. Budget
 * changes answer what changed (`BudgetChange`): the audit trail records that value.
 */
export interface UsageApi {
  /** Usage of the last `days` UTC days, of the projects the actor may read (or the one named). */
  report(actor: Actor, query: { project?: string | null; days?: number }): Promise<UsageReport>;
  /** Sets a project's or a person's budget (admins); periods not given keep their limit. */
  setBudget(actor: Actor, target: BudgetTarget, limits: Partial<BudgetLimits>): Promise<BudgetChange>;
  /** Removes a budget (admins). */
  clearBudget(actor: Actor, target: BudgetTarget): Promise<BudgetChange>;
  /** Every budget (admins). */
  budgets(actor: Actor): Promise<BudgetView[]>;
}

export function usageApi(kernel: Kernel): UsageApi {
  return {
    report: (actor, query) => usageReport(kernel, actor, query),
    setBudget: (actor, target, limits) => setBudget(kernel, actor, target, limits),
    clearBudget: (actor, target) => clearBudget(kernel, actor, target),
    budgets: (actor) => listBudgets(kernel, actor),
  };
}
