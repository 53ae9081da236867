/** A prompt over budget as the budget check refuses it (engine/usage's OverBudget, read by shape). */
interface BudgetRefusal {
  kind: "over-budget";
  scope: string;
  name: string;
  period: string;
  budget: number;
  used: number;
  resetsAt: number;
}

const isBudgetRefusal = (r: unknown): r is BudgetRefusal =>
  r !== null && typeof r === "object" && (r as { kind?: unknown }).kind === "over-budget";

/**
 * A budget refusal as the trail keeps it (one language for every reader, like the other reasons):
 * which budget, the use and the reset, so that the audit alone says why a prompt did not run.
 */
function budgetReason(r: BudgetRefusal): string {
  const whose = r.scope === "user" ? `user ${r.name}` : `project ${r.name}`;
  const resets = `${new Date(r.resetsAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `over_budget: the ${r.period} budget of ${whose} is reached, ${r.used} tokens used of ${r.budget}, resets at ${resets}`;
}

/**
 * Whether a use case's answer is a refusal given as a result (a result whose `kind` is `refused`,
 * or that carries a `refusal`: the budget check's error does); its reason, else null. Other thrown
 * EngineErrors are refusals too, read by the callers from their code and reason.
 */
export function refusalOf(value: unknown): string | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as { kind?: unknown; refusal?: unknown; reason?: unknown };
  if (v.kind === "refused") return typeof v.reason === "string" ? v.reason : "refused";
  if (isBudgetRefusal(v.refusal)) return budgetReason(v.refusal);
  if (v.refusal) return typeof v.refusal === "string" ? v.refusal : (JSON.stringify(v.refusal) ?? "refused");
  return null;
}
