import { type DecisionView, canDecision } from "../engine/api/model.js";
import { pendingApprovalBlock, type PendingApprovalItem } from "./approvals.js";
import { t, type Locale } from "../i18n/index.js";
import { button, context, divider, header, section } from "./blocks.js";
import { BLOCKS, CALLBACKS, ACTIONS, INPUTS } from "./ids.js";
import {
  checkboxOption,
  fitItems,
  inputValue,
  MAX_CHECKBOX_OPTIONS,
  modal,
  textInput,
  type CheckboxesElement,
  type InteractiveBlock,
  type InteractiveMessage,
  type ModalView,
  type StateValues,
} from "./interactive.js";
import {
  MAX_ACTIONS_ELEMENTS,
  MAX_BLOCK_ID,
  MAX_BUTTON_TEXT,
  MAX_OPTION_TEXT,
  MAX_OPTION_VALUE,
} from "./limits.js";
import { escapeClip, userMention } from "./mrkdwn.js";
import { redactText } from "../redaction.js";

/** The input of the free-text answer modal (`view.state.values[blockId][actionId].value`). */
const DECISION_CUSTOM_INPUT = {
  blockId: BLOCKS.decisionCustomInput,
  actionId: INPUTS.decisionCustom,
} as const;
/** The block id of the free-text input (the key of `response_action: "errors"`). */
export const DECISION_CUSTOM_BLOCK = BLOCKS.decisionCustomInput;
/** The action id of the free-text input. */
export const DECISION_CUSTOM_ACTION = INPUTS.decisionCustom;

/** Options rendered at most (the engine accepts 25: one actions block of buttons). */
const MAX_OPTIONS = 25;
/** Characters of the numbered option list shown when labels do not fit their buttons. */
const OPTION_LIST_CHARS = 3000;
const CUSTOM_MAX_LENGTH = 3000;

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);
const blockId = (prefix: string, id: string): string => `${prefix}.${id}`.slice(0, MAX_BLOCK_ID);

/**
 * Slack refuses two elements with one action_id in a block, so option buttons are
 * `decision.option.<option index>`; checkboxes (one element per block) keep `decision.option`.
 * Register the listener with this pattern, which matches both.
 */
export const DECISION_OPTION_ACTION = /^decision\.option(?:\.\d+)?$/;

/** The action id of the button of the option at `index`. */
const decisionOptionActionId = (index: number): string => `${ACTIONS.decisionOption}.${index}`;

/** The block id of the n-th block of option buttons or checkboxes of a decision. */
const decisionChoicesBlockId = (decisionId: string, n: number): string =>
  blockId(`${BLOCKS.decisionChoices}.${n}`, decisionId);

/** The block id of a decision's Submit / Answer-in-my-own-words buttons. */
const decisionActionsBlockId = (decisionId: string): string => blockId(BLOCKS.decisionActions, decisionId);

/** The decision id a block id of `decisionMessage` carries, or null for another block. */
export function decisionIdOfBlock(id: string): string | null {
  for (const prefix of [BLOCKS.decisionActions, BLOCKS.decisionText, BLOCKS.decisionAnswer]) {
    if (id.startsWith(`${prefix}.`) && id.length > prefix.length + 1) return id.slice(prefix.length + 1);
  }
  const m = /^(\d+)\.(.+)$/.exec(
    id.startsWith(`${BLOCKS.decisionChoices}.`) ? id.slice(BLOCKS.decisionChoices.length + 1) : "",
  );
  return m?.[2] ?? null;
}

/**
 * What each option's button value or checkbox value names it by: its id, or `#<index>` for an id
 * too long for Slack (150) or holding a secret (which must not be posted, and would come back
 * redacted), made unique against the other ids. `decisionOptionId` reverses it.
 */
function decisionOptionTokens(d: DecisionView): string[] {
  const ids = new Set(d.options.map((o) => o.id));
  const limit = Math.min(MAX_OPTION_VALUE, 1999 - d.id.length);
  return d.options.map((o, i) => {
    if (o.id.length <= limit && redactText(o.id) === o.id) return o.id;
    let token = `#${i}`;
    while (ids.has(token)) token += "#";
    return token;
  });
}

/** The option id a token (from a button value or a checkbox) stands for, or null. */
export function decisionOptionId(d: DecisionView, token: string): string | null {
  const index = decisionOptionTokens(d).indexOf(token);
  return index === -1 ? null : (d.options[index]?.id ?? null);
}

/** A `decision.option` button's value, `<decision id>|<option token>`, split back (null if malformed). */
export function parseDecisionOptionValue(value: string): { decisionId: string; token: string } | null {
  const bar = value.indexOf("|");
  if (bar <= 0 || bar === value.length - 1) return null;
  return { decisionId: value.slice(0, bar), token: value.slice(bar + 1) };
}

/**
 * The option ids ticked in a decision's checkboxes, read from the message's `body.state.values`
 * when its `decision.submit` button is pressed (unknown values are dropped).
 */
export function readDecisionChoices(d: DecisionView, values: StateValues): string[] {
  const chosen: string[] = [];
  for (let n = 0; n * MAX_CHECKBOX_OPTIONS < d.options.length; n++) {
    for (const option of values[decisionChoicesBlockId(d.id, n)]?.[ACTIONS.decisionOption]
      ?.selected_options ?? []) {
      const id = decisionOptionId(d, option.value);
      if (id !== null && !chosen.includes(id)) chosen.push(id);
    }
  }
  return chosen;
}

/** The free-text answer typed in `decisionCustomModal`, trimmed. */
export const readDecisionCustom = (values: StateValues): string =>
  inputValue(values, DECISION_CUSTOM_INPUT.blockId, DECISION_CUSTOM_INPUT.actionId).trim();

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The project the decision was asked in, when the engine's view carries it. */
const projectOf = (d: DecisionView): string | undefined =>
  "project_name" in d && typeof d.project_name === "string" && d.project_name ? d.project_name : undefined;

/** The answer as people read it: the chosen labels, then the free text. */
function answerText(d: DecisionView): string {
  const a = d.answer;
  if (!a) return "—";
  const labels = a.option_ids.map(
    (id) => `*${oneLine(d.options.find((o) => o.id === id)?.label ?? id, 200)}*`,
  );
  const custom = a.custom.trim() ? `« ${escapeClip(a.custom.trim(), 1500)} »` : "";
  return [labels.join(", "), custom].filter(Boolean).join(" — ") || "—";
}

/** The blocks of one decision; `compact` (the list) shortens the question and the option list. */
function decisionBlocks(
  locale: Locale,
  d: DecisionView,
  opts: { projectName?: string; answeredBy?: string; compact?: boolean },
): InteractiveBlock[] {
  const question = d.question.trim();
  const title = d.title.trim();
  const questionMax = opts.compact ? 400 : 1200;
  const head =
    title && title !== question
      ? `❓ *${oneLine(title, 200)}*\n${escapeClip(question, questionMax)}`
      : `❓ *${escapeClip(question, questionMax)}*`;
  const blocks: InteractiveBlock[] = [section(head, { blockId: blockId(BLOCKS.decisionText, d.id) })];
  const facts: string[] = [];
  const projectName = opts.projectName ?? projectOf(d);
  if (projectName) facts.push(t(locale, "decision.project", { project: oneLine(projectName, 100) }));

  if (!canDecision(d.status, "answer")) {
    if (facts.length) blocks.push(context(facts));
    const line =
      d.status === "CANCELLED"
        ? t(locale, "decision.cancelled")
        : opts.answeredBy
          ? t(locale, "decision.answered_by", { user: userMention(opts.answeredBy), answer: answerText(d) })
          : t(locale, "decision.answered", { answer: answerText(d) });
    blocks.push(section(line, { blockId: blockId(BLOCKS.decisionAnswer, d.id) }));
    return blocks;
  }

  const options = d.options.slice(0, MAX_OPTIONS);
  const tokens = decisionOptionTokens(d);
  const room = d.allow_multiple ? MAX_OPTION_TEXT : MAX_BUTTON_TEXT;
  const numbered = options.some((o) => o.label.trim().length > room);
  if (numbered) {
    // Labels too long for a button are listed in full (within one section) and numbered.
    const each = Math.floor(OPTION_LIST_CHARS / options.length) - 5;
    const lines = options.map(
      (o, i) => `${i + 1}. ${oneLine(o.label, opts.compact ? Math.min(each, 150) : each)}`,
    );
    blocks.push(section(lines.join("\n")));
  }
  const label = (i: number): string =>
    (numbered ? `${i + 1}. ` : "") + (options[i]?.label.trim().replace(/\s+/g, " ") ?? "");
  if (options.length > 0)
    facts.push(t(locale, d.allow_multiple ? "decision.pick_many" : "decision.pick_one"));
  if (d.allow_custom) facts.push(t(locale, "decision.custom_allowed"));
  if (d.options.length > MAX_OPTIONS)
    facts.push(t(locale, "common.more", { n: d.options.length - MAX_OPTIONS }));
  if (facts.length) blocks.push(context(facts));

  if (d.allow_multiple) {
    chunks(
      options.map((_, i) => i),
      MAX_CHECKBOX_OPTIONS,
    ).forEach((group, n) => {
      const element: CheckboxesElement = {
        type: "checkboxes",
        action_id: ACTIONS.decisionOption,
        options: group.map((i) => checkboxOption(label(i), tokens[i] as string)),
      };
      blocks.push({ type: "actions", block_id: decisionChoicesBlockId(d.id, n), elements: [element] });
    });
  } else {
    chunks(
      options.map((_, i) => i),
      MAX_ACTIONS_ELEMENTS,
    ).forEach((group, n) => {
      const elements = group.map((i) =>
        button({
          actionId: decisionOptionActionId(i),
          text: label(i),
          value: `${d.id}|${tokens[i] as string}`,
        }),
      );
      blocks.push({ type: "actions", block_id: decisionChoicesBlockId(d.id, n), elements });
    });
  }
  const final = [
    ...(d.allow_multiple && options.length > 0
      ? [
          button({
            actionId: ACTIONS.decisionSubmit,
            text: t(locale, "decision.submit"),
            value: d.id,
            style: "primary",
          }),
        ]
      : []),
    ...(d.allow_custom
      ? [button({ actionId: ACTIONS.decisionCustom, text: t(locale, "decision.custom"), value: d.id })]
      : []),
  ];
  if (final.length) blocks.push({ type: "actions", block_id: decisionActionsBlockId(d.id), elements: final });
  return blocks;
}

/**
 * The decision an agent asked, for its conversation's thread or a DM. While OPEN: one
 * `decision.option.<n>` button per option (value `<decision id>|<option id>`; listen with
 * `DECISION_OPTION_ACTION`), or, when several may be chosen, checkboxes (action `decision.option`,
 * values the option ids, at most 10 per block) and a `decision.submit` button (value the decision
 * id); a `decision.custom` button when a free answer is allowed. Once answered or cancelled nothing
 * is clickable: the answer and who gave it are shown.
 */
export function decisionMessage(
  locale: Locale,
  d: DecisionView,
  opts: { projectName?: string; answeredBy?: string } = {},
): InteractiveMessage {
  const title = oneLine(d.title.trim() || d.question, 150);
  const text = t(
    locale,
    canDecision(d.status, "answer") ? "decision.fallback_open" : "decision.fallback_closed",
    { title },
  );
  return { text, blocks: decisionBlocks(locale, d, opts) };
}

/** The modal for a free-text answer: `decision.custom`, private_metadata = the decision id. */
export function decisionCustomModal(locale: Locale, d: DecisionView): ModalView {
  const title = d.title.trim();
  const question = d.question.trim();
  const head =
    title && title !== question
      ? `*${oneLine(title, 200)}*\n${escapeClip(question, 2500)}`
      : `*${escapeClip(question, 2500)}*`;
  return modal({
    callbackId: CALLBACKS.decisionCustom,
    metadata: d.id,
    title: t(locale, "decision.custom_modal.title"),
    submit: t(locale, "decision.custom_modal.submit"),
    close: t(locale, "decision.custom_modal.close"),
    blocks: [
      section(head),
      textInput({
        blockId: DECISION_CUSTOM_INPUT.blockId,
        actionId: DECISION_CUSTOM_INPUT.actionId,
        label: t(locale, "decision.custom_modal.label"),
        multiline: true,
        maxLength: CUSTOM_MAX_LENGTH,
        placeholder: t(locale, "decision.custom_modal.placeholder"),
        hint: t(locale, "decision.custom_modal.hint"),
      }),
    ],
  });
}

/**
 * `/codex decisions`: each decision with its buttons (open ones answerable right here), within
 * one message; the ones that do not fit are counted, and an empty list says so.
 */
export function decisionsView(
  locale: Locale,
  decisions: DecisionView[],
  approvals: PendingApprovalItem[] = [],
): InteractiveMessage {
  const open = decisions.filter((d) => canDecision(d.status, "answer")).length;
  const title = approvals.length
    ? t(locale, "decisions.title_with_approvals", { n: open, m: approvals.length })
    : t(locale, "decisions.title", { n: open });
  if (decisions.length === 0 && approvals.length === 0)
    return {
      text: t(locale, "decisions.empty"),
      blocks: [header(title), section(t(locale, "decisions.empty"))],
    };
  // Approvals are answered on their card (in the conversation's thread): listed with its link.
  const items = [
    ...decisions.map((d) => decisionBlocks(locale, d, { compact: true })),
    ...approvals.map((a) => [pendingApprovalBlock(locale, a)]),
  ].map((blocks, i) => (i === 0 ? blocks : [divider(), ...blocks]));
  return { text: title, blocks: fitItems([header(title)], items, (n) => t(locale, "common.more", { n })) };
}

/**
 * A late click on an answered decision, as its clicker reads it: who answered (a mention: an
 * admin may have answered someone else's decision) and what. Null for any other refusal.
 */
export function decisionAnsweredText(
  locale: Locale,
  err: { reason: string; params: Readonly<Record<string, string | number>> },
): string | null {
  if (err.reason !== "decision_answered") return null;
  const text = t(locale, "reason.decision_answered", {
    person: userMention(String(err.params.person ?? "?")),
    answer: escapeClip(String(err.params.answer ?? "—"), 1500),
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
