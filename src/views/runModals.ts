import type { RunStepView } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { context } from "./blocks.js";
import { BLOCKS, CALLBACKS, INPUTS } from "./ids.js";
import {
  inputValue,
  modal,
  textInput,
  type InteractiveBlock,
  type ModalView,
  type StateValues,
} from "./interactive.js";
import { clip } from "./limits.js";
import { code, fitLines, more, oneLine } from "./runParts.js";

// The plan modals of `/codex run start` and of a revision, and the plan typed in them read back. Pure.

/** The plan input of both modals (`view.state.values[blockId][actionId].value`). */
export const RUN_PLAN_INPUT = { blockId: BLOCKS.runPlan, actionId: INPUTS.runPlan } as const;
/** Slack's limit on a plain-text input's value (and so on a plan typed in a modal). */
export const MAX_PLAN_INPUT = 3000;
/** Characters of an input's error message (Slack shows it under the field). */
const MAX_ERROR_TEXT = 2000;

/** The plan the way the owner writes it (the seed's field names), from a run's steps. */
function planOf(steps: readonly RunStepView[]): Array<Record<string, unknown>> {
  return steps.map((s) => ({
    id: s.id,
    order: s.order,
    phase: s.phase,
    phaseLabel: s.phase_label,
    target: s.target,
    aliases: s.aliases,
    title: s.title,
    summary: s.summary,
    risk: s.risk,
    prompt: s.prompt,
  }));
}

/** The plan as JSON for the revise modal: indented when it fits the input, else compact, else null. */
export function planJson(steps: readonly RunStepView[], max: number = MAX_PLAN_INPUT): string | null {
  const plan = planOf(steps);
  const pretty = JSON.stringify(plan, null, 2);
  if (pretty.length <= max) return pretty;
  const compact = JSON.stringify(plan);
  return compact.length <= max ? compact : null;
}

/** Metadata of the plan modals: the channel they came from (a submission carries none), and the run revised. */
export interface RunModalMetadata {
  channelId?: string;
  runId?: string;
}

const metadata = (m: RunModalMetadata): string =>
  JSON.stringify({
    ...(m.channelId ? { channelId: m.channelId } : {}),
    ...(m.runId ? { runId: m.runId } : {}),
  });

/** `/codex run start`: a multiline input for the plan JSON. */
export function runStartModal(locale: Locale, opts: { channelId?: string } = {}): ModalView {
  return modal({
    callbackId: CALLBACKS.runStart,
    metadata: metadata({ channelId: opts.channelId }),
    title: t(locale, "run_modal.start_title"),
    submit: t(locale, "run_modal.start_submit"),
    close: t(locale, "run_modal.close"),
    blocks: [
      context([t(locale, "run_modal.start_intro")]),
      textInput({
        ...RUN_PLAN_INPUT,
        label: t(locale, "run_modal.plan_label"),
        multiline: true,
        maxLength: MAX_PLAN_INPUT,
        placeholder: t(locale, "run_modal.plan_placeholder"),
        hint: t(locale, "run_modal.plan_hint", { max: MAX_PLAN_INPUT }),
      }),
    ],
  });
}

/**
 * `/codex run resume --revise` and the Revise button: the run's plan to edit, prefilled when its
 * JSON fits the input (else empty, with a hint and the steps that must not change).
 */
export function runReviseModal(
  locale: Locale,
  opts: { runId: string; channelId?: string; steps: readonly RunStepView[] },
): ModalView {
  const json = planJson(opts.steps);
  const blocks: InteractiveBlock[] = [context([t(locale, "run_modal.revise_intro")])];
  if (json === null) {
    const lines = opts.steps.map(
      (s) => `\`${code(s.id, 60)}\` · ${s.order} · ${oneLine(s.target, 60)} · \`${code(s.risk, 50)}\``,
    );
    blocks.push(
      ...fitLines(lines, { chars: 8000, blocks: 5, idPrefix: BLOCKS.runSteps, more: more(locale) }),
    );
  }
  blocks.push(
    textInput({
      ...RUN_PLAN_INPUT,
      label: t(locale, "run_modal.plan_label"),
      multiline: true,
      maxLength: MAX_PLAN_INPUT,
      hint:
        json === null
          ? t(locale, "run_modal.plan_too_long", { max: MAX_PLAN_INPUT })
          : t(locale, "run_modal.plan_hint", { max: MAX_PLAN_INPUT }),
      ...(json === null ? { placeholder: t(locale, "run_modal.plan_placeholder") } : { initialValue: json }),
    }),
  );
  return modal({
    callbackId: CALLBACKS.runRevise,
    metadata: metadata({ channelId: opts.channelId, runId: opts.runId }),
    title: t(locale, "run_modal.revise_title"),
    submit: t(locale, "run_modal.revise_submit"),
    close: t(locale, "run_modal.close"),
    blocks,
  });
}

/** The plan text typed in either modal. */
export const readRunPlan = (values: StateValues): string =>
  inputValue(values, RUN_PLAN_INPUT.blockId, RUN_PLAN_INPUT.actionId);

/** The plan modals' metadata read back (`{}` when missing or malformed). */
export function readRunModalMetadata(privateMetadata: string): RunModalMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(privateMetadata);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const { channelId, runId } = parsed as { channelId?: unknown; runId?: unknown };
  return {
    ...(typeof channelId === "string" && channelId ? { channelId } : {}),
    ...(typeof runId === "string" && runId ? { runId } : {}),
  };
}

/** The plan text as JSON, or the sentence saying why it is not JSON. */
export function parsePlanText(
  locale: Locale,
  text: string,
): { ok: true; plan: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, plan: JSON.parse(text) as unknown };
  } catch (err) {
    return {
      ok: false,
      error: t(locale, "run_modal.plan_invalid_json", { detail: jsonErrorPlace(locale, err) }),
    };
  }
}

/**
 * Where JSON.parse stopped, in the person's language: its own message is English whatever theirs
 * (issue 20: no raw library text inside a catalog sentence), so only the place is kept.
 */
function jsonErrorPlace(locale: Locale, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = /line (\d+) column (\d+)/.exec(message);
  if (at) return t(locale, "run_modal.json_at", { line: at[1] as string, column: at[2] as string });
  const position = /position (\d+)/.exec(message);
  if (position) return t(locale, "run_modal.json_at_position", { n: Number(position[1]) + 1 });
  const token = /Unexpected token '(.+?)'/.exec(message);
  if (token) return t(locale, "run_modal.json_unexpected", { token: token[1] as string });
  return t(locale, /end of JSON/i.test(message) ? "run_modal.json_ends_early" : "run_modal.json_invalid");
}

/** `response_action: "errors"` naming the plan field with `message`. */
export const runPlanErrors = (message: string): Record<string, string> => ({
  [RUN_PLAN_INPUT.blockId]: clip(message, MAX_ERROR_TEXT),
});
