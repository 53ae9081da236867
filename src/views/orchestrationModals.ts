import type { OrchestrationView } from "../engine/api/model.js";
import { t, type Locale, type MessageKey } from "../i18n/index.js";
import { parseTests } from "./argv.js";
import { context, section } from "./blocks.js";
import { BLOCKS, CALLBACKS } from "./ids.js";
import { inputValue, modal, textInput, type ModalView, type StateValues } from "./interactive.js";
import { clip } from "./limits.js";
import { escapeClip } from "./mrkdwn.js";

// The orchestration modals (creation, and the feedback of a reject or corrections button) and
// what they carry read back: metadata, the form's values, the errors to show under fields. Pure.

/** The inputs of the creation modal (`view.state.values[blockId][actionId].value`). */
export const ORCH_INPUTS = {
  name: { blockId: BLOCKS.orchName, actionId: `${BLOCKS.orchName}.value` },
  request: { blockId: BLOCKS.orchRequest, actionId: `${BLOCKS.orchRequest}.value` },
  criteria: { blockId: BLOCKS.orchCriteria, actionId: `${BLOCKS.orchCriteria}.value` },
  tests: { blockId: BLOCKS.orchTests, actionId: `${BLOCKS.orchTests}.value` },
} as const;

/** The input of the reject and corrections modals. */
export const ORCH_FEEDBACK_INPUT = {
  blockId: BLOCKS.orchFeedback,
  actionId: `${BLOCKS.orchFeedback}.value`,
} as const;

/** A field of the creation form. */
export type OrchestrationField = keyof typeof ORCH_INPUTS;

/** Slack's limit on a plain-text input's length. */
const MAX_INPUT = 3000;

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);

/**
 * `/codex orchestrate <project>`: name, request, acceptance criteria (one per line) and tests (one
 * command per line). The project and the channel travel in private_metadata as JSON
 * `{ projectId, channelId }`: a view submission carries no channel.
 */
export function orchestrationModal(
  locale: Locale,
  opts: { projectId: string; projectName: string; channelId?: string },
): ModalView {
  const k = (key: string) => t(locale, `orch_modal.${key}` as MessageKey);
  return modal({
    callbackId: CALLBACKS.orchCreate,
    metadata: JSON.stringify({
      projectId: opts.projectId,
      ...(opts.channelId ? { channelId: opts.channelId } : {}),
    }),
    title: k("title"),
    submit: k("submit"),
    close: k("close"),
    blocks: [
      context([t(locale, "orch_modal.intro", { project: oneLine(opts.projectName, 100) })]),
      textInput({
        ...ORCH_INPUTS.name,
        label: k("name.label"),
        maxLength: 120,
        placeholder: k("name.placeholder"),
      }),
      textInput({
        ...ORCH_INPUTS.request,
        label: k("request.label"),
        multiline: true,
        maxLength: MAX_INPUT,
        placeholder: k("request.placeholder"),
      }),
      textInput({
        ...ORCH_INPUTS.criteria,
        label: k("criteria.label"),
        multiline: true,
        maxLength: MAX_INPUT,
        hint: k("criteria.hint"),
        optional: true,
      }),
      textInput({
        ...ORCH_INPUTS.tests,
        label: k("tests.label"),
        multiline: true,
        maxLength: MAX_INPUT,
        hint: k("tests.hint"),
        optional: true,
      }),
    ],
  });
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The creation modal's metadata read back (fields absent when missing or malformed). */
export function readOrchestrationMetadata(privateMetadata: string): {
  projectId?: string;
  channelId?: string;
} {
  const m = parseJson(privateMetadata);
  const projectId = str(m.projectId);
  const channelId = str(m.channelId);
  return { ...(projectId ? { projectId } : {}), ...(channelId ? { channelId } : {}) };
}

/** What the creation form gives the engine. */
export interface OrchestrationForm {
  name: string;
  request: string;
  acceptance_criteria: string[];
  tests: string[][];
}

/** The creation form's values, and the errors found before the engine sees them (tests that cannot be split). */
export function readOrchestrationForm(
  locale: Locale,
  values: StateValues,
): { form: OrchestrationForm; errors: Record<string, string> } {
  const read = (f: OrchestrationField) => inputValue(values, ORCH_INPUTS[f].blockId, ORCH_INPUTS[f].actionId);
  const tests = parseTests(read("tests"));
  const form: OrchestrationForm = {
    name: read("name").trim(),
    request: read("request").trim(),
    acceptance_criteria: read("criteria")
      .split(/\r?\n/)
      .map((c) => c.replace(/^\s*(?:[-*•]\s+)?/, "").trim())
      .filter(Boolean),
    tests: tests.ok ? tests.tests : [],
  };
  const errors: Record<string, string> = tests.ok
    ? {}
    : { [ORCH_INPUTS.tests.blockId]: t(locale, "orch_modal.tests.unclosed", { line: tests.line }) };
  return { form, errors };
}

const FIELD_OF: Record<string, OrchestrationField> = {
  name: "name",
  request: "request",
  acceptance_criteria: "criteria",
  tests: "tests",
};

/**
 * The `response_action: "errors"` map for the fields the engine refused (its `orch_invalid`
 * fields, e.g. "acceptance_criteria, tests"); `message` (already Slack text) goes under the name
 * when no field is named (a project that vanished, a path that is not a repository).
 */
export function orchestrationFormErrors(
  locale: Locale,
  fields: string[],
  message?: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const raw of fields) {
    const field = FIELD_OF[raw.trim()];
    if (field) errors[ORCH_INPUTS[field].blockId] = t(locale, `orch_modal.${field}.error` as MessageKey);
  }
  if (Object.keys(errors).length === 0)
    errors[ORCH_INPUTS.name.blockId] = clip(message ?? t(locale, "orch_modal.name.error"), 2000);
  return errors;
}

/** Which feedback a modal asks for: a draft's rejection or corrections of the agent's work. */
export type FeedbackKind = "reject" | "corrections";

/** The feedback modal of a reject or corrections button; private_metadata `{ id, channelId }`. */
export function feedbackModal(
  locale: Locale,
  kind: FeedbackKind,
  o: Pick<OrchestrationView, "id" | "name" | "draft_version">,
  opts: { channelId?: string } = {},
): ModalView {
  const name = oneLine(o.name, 200);
  const intro =
    kind === "reject"
      ? t(locale, "orch_modal.reject.intro", { version: o.draft_version, name })
      : t(locale, "orch_modal.corrections.intro", { name });
  return modal({
    callbackId: kind === "reject" ? CALLBACKS.orchReject : CALLBACKS.orchCorrections,
    metadata: JSON.stringify({ id: o.id, ...(opts.channelId ? { channelId: opts.channelId } : {}) }),
    title: t(locale, `orch_modal.${kind}.title`),
    submit: t(locale, `orch_modal.${kind}.submit`),
    close: t(locale, "orch_modal.close"),
    blocks: [
      section(intro),
      textInput({
        ...ORCH_FEEDBACK_INPUT,
        label: t(locale, `orch_modal.${kind}.label`),
        multiline: true,
        maxLength: MAX_INPUT,
        placeholder: t(locale, "orch_modal.feedback.placeholder"),
      }),
    ],
  });
}

/** A feedback modal's metadata read back. */
export function readFeedbackMetadata(privateMetadata: string): { id?: string; channelId?: string } {
  const m = parseJson(privateMetadata);
  const id = str(m.id);
  const channelId = str(m.channelId);
  return { ...(id ? { id } : {}), ...(channelId ? { channelId } : {}) };
}

/** The feedback typed in a feedback modal, trimmed. */
export const readFeedback = (values: StateValues): string =>
  inputValue(values, ORCH_FEEDBACK_INPUT.blockId, ORCH_FEEDBACK_INPUT.actionId).trim();
