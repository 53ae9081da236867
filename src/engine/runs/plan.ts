import { z } from "zod";
import { EngineError } from "../errors.js";
import { normalizeName } from "../protocol/index.js";

// The plan a run executes: zod-validated JSON, its targets resolved to projects by normalised
// name, and the rules of a revised plan (only prompts may change). Pure.

const text = (max: number) => z.string().trim().max(max);

/** One step of a plan as the owner writes it (the seed's field names). */
const planStepSchema = z.object({
  id: text(100).min(1),
  order: z.number().int().min(1).max(1000),
  phase: z.number().int().min(0).max(1000).default(1),
  phaseLabel: text(200).default(""),
  target: text(100).min(1),
  aliases: z.array(text(100).min(1)).max(20).default([]),
  title: text(200).min(1),
  summary: text(4000).default(""),
  risk: text(50).min(1),
  prompt: text(20_000).min(1),
});
/** A validated plan step. */
export type PlanStep = z.infer<typeof planStepSchema>;

const stepsSchema = z
  .array(planStepSchema)
  .min(1)
  .max(50)
  .refine((steps) => new Set(steps.map((s) => s.id)).size === steps.length, {
    message: "step ids must be unique",
  })
  .refine((steps) => new Set(steps.map((s) => s.order)).size === steps.length, {
    message: "step orders must be unique",
  });

/** A plan: a list of steps, or `{steps: [...]}` (what the start modal and the seed's API send). */
const planSchema = z
  .preprocess(
    (v) =>
      v !== null && typeof v === "object" && !Array.isArray(v) && "steps" in v
        ? (v as { steps: unknown }).steps
        : v,
    stepsSchema,
  )
  .transform((steps) => [...steps].sort((a, b) => a.order - b.order));

/** Parses a plan given as JSON text or as a value; throws `invalid` naming the faulty fields. */
export function parsePlan(input: unknown): PlanStep[] {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input) as unknown;
    } catch {
      throw new EngineError("invalid", "run_plan_invalid", { fields: "JSON" });
    }
  }
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || i.message))]
      .slice(0, 6)
      .join(", ");
    throw new EngineError("invalid", "run_plan_invalid", { fields });
  }
  return parsed.data;
}

/** A project a step may target. */
export interface Candidate {
  id: string;
  name: string;
}

/** A step with the project it runs in. */
export type ResolvedStep = PlanStep & { projectId: string };

/**
 * Resolves each step's project: the one whose normalised name equals the normalised target, else
 * one of its aliases (S-RUN-09: "Aloe" resolves through the alias "NASFLIX"); none is `invalid`.
 */
export function resolveTargets(steps: readonly PlanStep[], candidates: readonly Candidate[]): ResolvedStep[] {
  const byKey = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = normalizeName(c.name);
    if (key && !byKey.has(key)) byKey.set(key, c);
  }
  return steps.map((step) => {
    const project = [step.target, ...step.aliases]
      .map((n) => byKey.get(normalizeName(n)))
      .find((c) => c !== undefined);
    if (!project)
      throw new EngineError("invalid", "run_target_unknown", { step: step.id, target: step.target });
    return { ...step, projectId: project.id };
  });
}

/** A step as the run holds it, for comparing a revised plan. */
export interface CurrentStep {
  stepId: string;
  position: number;
  projectId: string;
  risk: string;
}

/**
 * Checks a revised plan against the running one: same steps in the same order, each on the same
 * project with the same risk. Prompts (and descriptive texts) are all it may change, so that a
 * revision never widens what the run may touch nor re-grants permissions (S-RUN-05).
 */
export function checkRebase(current: readonly CurrentStep[], revised: readonly ResolvedStep[]): void {
  const same = (a: CurrentStep | undefined, b: ResolvedStep | undefined) =>
    a !== undefined &&
    b !== undefined &&
    a.stepId === b.id &&
    a.position === b.order &&
    a.projectId === b.projectId &&
    a.risk === b.risk;
  const length = Math.max(current.length, revised.length);
  for (let i = 0; i < length; i++) {
    const a = current[i];
    const b = revised[i];
    if (!same(a, b))
      throw new EngineError("conflict", "run_rebase_refused", { step: a?.stepId ?? b?.id ?? "?" });
  }
}
