// Row types of db/migrations/0029_usage_and_budgets. Times are epoch milliseconds.

/** One finished turn's token usage and agent time, charged to a project and a person. */
export interface TurnUsageTable {
  queue_id: string;
  conversation_id: string;
  project_id: string;
  person: string | null;
  model: string | null;
  /** This turn's share (the thread's totals minus the previous turn's). */
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  /** The thread's running totals as Codex reported them at the end of this turn. */
  total_input_tokens: number;
  total_cached_input_tokens: number;
  total_output_tokens: number;
  agent_ms: number;
  /** The UTC day it finished, `YYYY-MM-DD`. */
  day: string;
  finished_at: number;
}

/** What a budget limits: a project (by id) or a person (by Slack user id). */
export type BudgetScope = "project" | "user";

/** An admin-set token budget; a null period has no limit. */
export interface BudgetsTable {
  scope: BudgetScope;
  subject: string;
  daily_tokens: number | null;
  monthly_tokens: number | null;
  updated_by: string | null;
  updated_at: number;
}

/** A budget period: a UTC day or a UTC calendar month. */
export type BudgetPeriod = "daily" | "monthly";

/** A budget reached in one period; its row is what makes the admins' notice once only. */
export interface BudgetAlertsTable {
  scope: BudgetScope;
  subject: string;
  period: BudgetPeriod;
  period_start: number;
  created_at: number;
}

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its tables to it.
declare module "../schema.js" {
  interface DB {
    turn_usage: TurnUsageTable;
    budgets: BudgetsTable;
    budget_alerts: BudgetAlertsTable;
  }
}
