/**
 * Whether a use case's answer is a refusal given as a result rather than thrown (a result whose
 * `kind` is `refused`, or that carries a `refusal`: the budget check answers so); its reason, else
 * null. Thrown EngineErrors are refusals too, read by the callers.
 */
export function refusalOf(value: unknown): string | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as { kind?: unknown; refusal?: unknown; reason?: unknown };
  if (v.kind === "refused") return typeof v.reason === "string" ? v.reason : "refused";
  if (v.refusal) return typeof v.refusal === "string" ? v.refusal : (JSON.stringify(v.refusal) ?? "refused");
  return null;
}
