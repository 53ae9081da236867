import type { Actor } from "../../engine/api/model.js";
import { budgetChangeText, budgetsView, usageView } from "../../views/usage.js";
import type { UsageCommand } from "../usageGrammar.js";
import type { BotContext } from "../context.js";
import type { Reply } from "./runs.js";

type Of<K extends UsageCommand["kind"]> = Extract<UsageCommand, { kind: K }>;

// `/codex usage` and `/codex budget` (issue 21). The engine checks rights (budgets: admins; the
// report: the projects the person may read); budget changes answer what changed, which is what
// the audit trail records (`BudgetChange`).

export async function usageCommand(cmd: Of<"usage.show">, ctx: BotContext, actor: Actor): Promise<Reply> {
  const report = await ctx.api.usage.report(actor, { project: cmd.project, days: cmd.days ?? undefined });
  return usageView(ctx.locale, report);
}

export async function budgetSetCommand(cmd: Of<"budget.set">, ctx: BotContext, actor: Actor): Promise<Reply> {
  const change = await ctx.api.usage.setBudget(actor, cmd.target, { daily: cmd.daily, monthly: cmd.monthly });
  return { text: budgetChangeText(ctx.locale, change) };
}

export async function budgetClearCommand(
  cmd: Of<"budget.clear">,
  ctx: BotContext,
  actor: Actor,
): Promise<Reply> {
  const change = await ctx.api.usage.clearBudget(actor, cmd.target);
  return { text: budgetChangeText(ctx.locale, change) };
}

export async function budgetListCommand(ctx: BotContext, actor: Actor): Promise<Reply> {
  return budgetsView(ctx.locale, await ctx.api.usage.budgets(actor));
}
