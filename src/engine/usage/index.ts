// The public face of engine/usage (issue 21, item 2): what turns used (tokens, agent time, an
// estimated cost), summed per project, person and day, and the admin-set budgets that refuse a
// new prompt once reached.

export {
  type BudgetChange,
  type BudgetLimits,
  type BudgetTarget,
  type BudgetView,
  allBudgets,
  clearBudget,
  listBudgets,
  setBudget,
} from "./budgets.js";
export {
  type Chargee,
  type OverBudget,
  OverBudgetError,
  assertWithinBudget,
  isOverBudget,
  tokensUsedSince,
} from "./check.js";
export { periodBounds } from "./periods.js";
export { recordTurnUsage } from "./record.js";
export { type UsageReport, type UsageRow, type UsageSums, usageReport } from "./report.js";
export type { BudgetPeriod, BudgetScope } from "./schema.js";
export { usageTotals } from "./totals.js";
