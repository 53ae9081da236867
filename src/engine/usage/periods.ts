import type { BudgetPeriod } from "./schema.js";

// Budget periods are UTC days and UTC calendar months: one answer on every machine and for every
// person, whatever their time zone (docs/usage-and-budgets.md says so). Pure.

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The start of the period containing `at` and the instant it resets (the next period's start). */
export function periodBounds(period: BudgetPeriod, at: number): { start: number; resetsAt: number } {
  const d = new Date(at);
  if (period === "daily") {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    return { start, resetsAt: start + 86_400_000 };
  }
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

/** An instant as people read a reset time: `2026-12-03 00:00 UTC`. */
export const utcMinute = (at: number): string =>
  `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
