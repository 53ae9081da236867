import type * as slack from "@slack/types";
import {
  MAX_BLOCK_ID,
  MAX_BUTTON_TEXT,
  MAX_BUTTON_VALUE,
  MAX_CONFIRM_BUTTON,
  MAX_CONFIRM_TEXT,
  MAX_CONFIRM_TITLE,
  MAX_CONTEXT_ELEMENTS,
  MAX_CONTEXT_TEXT,
  MAX_FIELD_TEXT,
  MAX_HEADER_TEXT,
  MAX_SECTION_FIELDS,
  MAX_SECTION_TEXT,
  clip,
} from "./limits.js";

/** A plain-text object. */
export interface PlainText extends slack.PlainTextElement {
  type: "plain_text";
  text: string;
  emoji?: boolean;
}

/** A mrkdwn text object (its text is already escaped by the caller). */
export interface MrkdwnText extends slack.MrkdwnElement {
  type: "mrkdwn";
  text: string;
}

/** A confirmation dialog on a button. */
export interface ConfirmDialog extends slack.ConfirmationDialog {
  title: PlainText;
  text: PlainText;
  confirm: PlainText;
  deny: PlainText;
  style?: "primary" | "danger";
}

/** A button element. */
export interface ButtonElement extends slack.Button {
  type: "button";
  action_id: string;
  text: PlainText;
  value?: string;
  style?: "primary" | "danger";
  confirm?: ConfirmDialog;
}

// Each block extends its `@slack/types` counterpart, so a builder that drifts from Block Kit fails to
// compile here rather than at a Bolt call site. The two sections do not extend `SectionBlock`: its
// optional `text`, `fields` and `accessory` would blur which of the two a block is; `Block` below
// checks them against `KnownBlock` instead.

/** A section of text, with an optional button beside it. */
export interface TextSection {
  type: "section";
  block_id?: string;
  text: PlainText | MrkdwnText;
  accessory?: ButtonElement;
}

/** A section of fields (two columns). */
export interface FieldsSection {
  type: "section";
  block_id?: string;
  fields: Array<PlainText | MrkdwnText>;
}

/** A context block of small texts. */
export interface ContextBlock extends slack.ContextBlock {
  type: "context";
  elements: Array<PlainText | MrkdwnText>;
}

/** An actions block of buttons. */
export interface ActionsBlock extends slack.ActionsBlock {
  type: "actions";
  elements: ButtonElement[];
}

/** A header block. */
export interface HeaderBlock extends slack.HeaderBlock {
  type: "header";
  text: PlainText;
}

/** `T`, which must be assignable to `U` (a compile-time check). */
type Checked<T extends U, U> = T;

/** The blocks views produce: a subset of Block Kit, each a subtype of `@slack/types`' `KnownBlock`. */
export type Block = Checked<
  TextSection | FieldsSection | ContextBlock | ActionsBlock | HeaderBlock | slack.DividerBlock,
  slack.KnownBlock
>;

/** A message: fallback text (notifications, screen readers) and its blocks. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

const blockId = (id: string | undefined) => (id === undefined ? {} : { block_id: id.slice(0, MAX_BLOCK_ID) });

/** A plain-text object clipped to `max` (emoji shortcodes rendered). */
export const plain = (text: string, max: number): PlainText => ({
  type: "plain_text",
  text: clip(text, max),
  emoji: true,
});

/** A section of mrkdwn text; the text must already fit (views split or clip before). */
export function section(text: string, opts: { blockId?: string; accessory?: ButtonElement } = {}): Block {
  return {
    type: "section",
    ...blockId(opts.blockId),
    text: { type: "mrkdwn", text: clip(text, MAX_SECTION_TEXT) },
    ...(opts.accessory ? { accessory: opts.accessory } : {}),
  };
}

/** A section of mrkdwn fields (two columns). */
export function fields(texts: string[], id?: string): Block {
  return {
    type: "section",
    ...blockId(id),
    fields: texts
      .slice(0, MAX_SECTION_FIELDS)
      .map((t) => ({ type: "mrkdwn" as const, text: clip(t, MAX_FIELD_TEXT) })),
  };
}

/** A context block of small mrkdwn lines. */
export function context(texts: string[], id?: string): Block {
  return {
    type: "context",
    ...blockId(id),
    elements: texts
      .slice(0, MAX_CONTEXT_ELEMENTS)
      .map((t) => ({ type: "mrkdwn" as const, text: clip(t, MAX_CONTEXT_TEXT) })),
  };
}

/** A header block (plain text, clipped to 150). */
export const header = (text: string, id?: string): Block => ({
  type: "header",
  ...blockId(id),
  text: plain(text, MAX_HEADER_TEXT),
});

/** A divider block. */
export const divider = (): Block => ({ type: "divider" });

/** A button; a value that would not fit is a bug in the caller, not something to cut silently. */
export function button(opts: {
  actionId: string;
  text: string;
  value: string;
  style?: "primary" | "danger";
  confirm?: ConfirmDialog;
}): ButtonElement {
  if (opts.value.length > MAX_BUTTON_VALUE)
    throw new RangeError(`button value for ${opts.actionId} is ${opts.value.length} characters`);
  return {
    type: "button",
    action_id: opts.actionId,
    text: plain(opts.text, MAX_BUTTON_TEXT),
    value: opts.value,
    ...(opts.style ? { style: opts.style } : {}),
    ...(opts.confirm ? { confirm: opts.confirm } : {}),
  };
}

/** A confirmation dialog, clipped to its limits. */
export function confirmDialog(opts: {
  title: string;
  text: string;
  confirm: string;
  deny: string;
  style?: "primary" | "danger";
}): ConfirmDialog {
  return {
    title: plain(opts.title, MAX_CONFIRM_TITLE),
    text: plain(opts.text, MAX_CONFIRM_TEXT),
    confirm: plain(opts.confirm, MAX_CONFIRM_BUTTON),
    deny: plain(opts.deny, MAX_CONFIRM_BUTTON),
    ...(opts.style ? { style: opts.style } : {}),
  };
}

/** An actions block. */
export const actions = (elements: ButtonElement[], id?: string): Block => ({
  type: "actions",
  ...blockId(id),
  elements,
});

/**
 * Lines packed into as few texts of at most `max` characters as possible (a line longer than
 * `max` is clipped: callers pass lines that are short by construction).
 */
export function packLines(lines: string[], max: number = MAX_SECTION_TEXT): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of lines) {
    const line = clip(raw, max);
    if (current && current.length + 1 + line.length > max) {
      out.push(current);
      current = "";
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Entries as sections (several per section when short, `separator` between them) within
 * `maxBlocks`; entries that do not fit are counted in a final `more(n)` context line, never
 * dropped silently.
 */
export function listBlocks(
  entries: string[],
  opts: { maxBlocks: number; idPrefix: string; more: (n: number) => string; separator?: string },
): Block[] {
  const separator = opts.separator ?? "\n";
  const texts: Array<{ text: string; count: number }> = [];
  for (const entry of entries) {
    const line = clip(entry, MAX_SECTION_TEXT);
    const last = texts[texts.length - 1];
    if (last && last.text.length + separator.length + line.length <= MAX_SECTION_TEXT) {
      last.text += separator + line;
      last.count++;
    } else texts.push({ text: line, count: 1 });
  }
  const toBlock = (x: { text: string }, i: number): Block =>
    section(x.text, { blockId: `${opts.idPrefix}.${i}` });
  if (texts.length <= opts.maxBlocks) return texts.map(toBlock);
  const kept = texts.slice(0, Math.max(0, opts.maxBlocks - 1));
  const shown = kept.reduce((n, x) => n + x.count, 0);
  return [...kept.map(toBlock), context([opts.more(entries.length - shown)])];
}
