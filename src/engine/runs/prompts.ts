import { t, type Locale } from "../../i18n/index.js";
import { quote } from "../text/index.js";
import { MAX_CORRECTION_ROUNDS, type BlockCode, type WorkStage } from "./machine.js";
import type { StepRow } from "./schema.js";

// The prompts agents read, from the catalog (the run's locale). What agents, the master or the
// engine wrote is quoted as data. The plan is the step agents' instructions (each in a project its
// author can see), but only data for the master: the master's agent is often full-access, and
// whoever starts a run must not be able to instruct it through the plan's text.

/** A plan, a step's prompt: quoted whole (never cut: the master reviews what the agents will read). */
const quoted = (text: string) => quote(text, Number.POSITIVE_INFINITY);

/** A step with the project it runs in, as prompts and views need it. */
export type StepWithProject = StepRow & { project_name: string; project_path: string };

const line = (locale: Locale, s: StepWithProject) =>
  t(locale, "run.plan_line", {
    order: s.position,
    title: s.title,
    phase: s.phase,
    phaseLabel: s.phase_label,
    project: s.project_name,
    risk: s.risk,
    summary: s.summary,
    prompt: s.prompt,
  });

/** The master's review of the whole plan, before any step starts. */
export const planReviewPrompt = (locale: Locale, steps: readonly StepWithProject[]): string =>
  t(locale, "prompt.run_plan_review", { plan: quoted(steps.map((s) => line(locale, s)).join("\n\n")) });

/** A step's first prompt, in a new conversation of its project. */
export const stepPrompt = (locale: Locale, s: StepWithProject, total: number): string =>
  t(locale, "prompt.run_step", {
    order: s.position,
    total,
    title: s.title,
    summary: s.summary,
    risk: s.risk,
    prompt: s.prompt,
  });

/** The master's correction request, sent back to the step's own conversation. */
export const correctionPrompt = (
  locale: Locale,
  s: StepWithProject,
  round: number,
  feedback: string,
): string =>
  t(locale, "prompt.run_step_correction", {
    order: s.position,
    title: s.title,
    round,
    max: MAX_CORRECTION_ROUNDS,
    feedback: quote(feedback),
    prompt: s.prompt,
  });

/** The step's agent takes the step up again after a block (owner or self-repair resume). */
export const resumeStepPrompt = (locale: Locale, s: StepWithProject, reason: string): string =>
  t(locale, "prompt.run_step_resume", {
    order: s.position,
    title: s.title,
    reason: quote(reason || "?"),
    prompt: s.prompt,
  });

/** The master's review of one step's work. */
export const reviewPrompt = (locale: Locale, s: StepWithProject, total: number, answer: string): string =>
  t(locale, "prompt.run_step_review", {
    order: s.position,
    total,
    project: s.project_name,
    path: s.project_path,
    attempt: s.attempts,
    step: quoted(line(locale, s)),
    answer: quote(answer),
  });

/** An interrupted review starts again as an inspection only: the agent's work is not replayed. */
export const reviewRestartPrompt = (locale: Locale, s: StepWithProject, answer: string): string =>
  t(locale, "prompt.run_review_restart", {
    order: s.position,
    project: s.project_name,
    path: s.project_path,
    step: quoted(line(locale, s)),
    answer: quote(answer),
  });

/** The master's final synthesis once every step is approved. */
export const finalReviewPrompt = (locale: Locale, steps: readonly StepWithProject[]): string =>
  t(locale, "prompt.run_final_review", {
    steps: quoted(
      steps
        .map((s) =>
          t(locale, "run.final_line", {
            order: s.position,
            title: s.title,
            project: s.project_name,
            attempts: s.attempts,
            feedback: s.feedback ?? "",
          }),
        )
        .join("\n"),
    ),
  });

/** What a self-repair is told about the block. */
export interface RepairBrief {
  stage: WorkStage;
  code: BlockCode;
  error: string;
  step: StepWithProject | null;
}

/** The self-repair's prompt: the block quoted as untrusted data, and the safeguards restated. */
export const selfRepairPrompt = (locale: Locale, b: RepairBrief): string =>
  t(locale, "prompt.run_self_repair", {
    stage: b.stage,
    step: b.step ? t(locale, "run.repair_step", { step: b.step.step_id, title: b.step.title }) : "",
    code: b.code,
    error: quote(b.error || "?"),
    prompt: quote(b.step?.prompt ?? "-"),
  });
