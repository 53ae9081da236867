// The public face of engine/usage (issue 21, item 2): what turns used (tokens, agent time, an
// estimated cost), summed per project, person and day, and the admin-set budgets that refuse a
// new prompt once reached. A refusal is an OverBudgetError whose `refusal` says which budget,
// the use and the reset (`isOverBudget` tells it apart: schedules report it).

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
  assertChargeable,
  assertWithinBudget,
  budgetRefusalIn,
  chargeeOf,
  isOverBudget,
  overBudgetText,
} from "./check.js";
export { recordTurnUsage } from "./record.js";
export { type UsageReport, type UsageRow, type UsageSums, usageReport } from "./report.js";
export { usageTotals } from "./totals.js";
