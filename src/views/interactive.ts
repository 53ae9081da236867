import type * as slack from "@slack/types";
import { redactText } from "../redaction.js";
import { context, plain, type Block, type ButtonElement, type PlainText } from "./blocks.js";
import {
  MAX_BLOCK_ID,
  MAX_MESSAGE_BLOCKS,
  MAX_MESSAGE_CHARS,
  MAX_MODAL_BUTTON,
  MAX_MODAL_TITLE,
  MAX_OPTION_TEXT,
  MAX_OPTION_VALUE,
  MAX_PRIVATE_METADATA,
} from "./limits.js";

/** Characters of a label, hint or placeholder of an input (Slack: 2000, 2000, 150). */
const MAX_INPUT_LABEL = 2000;
const MAX_INPUT_HINT = 2000;
const MAX_PLACEHOLDER = 150;
/** Options in one checkboxes element. */
export const MAX_CHECKBOX_OPTIONS = 10;

/** One option of a checkboxes element. */
export interface CheckboxOption extends slack.PlainTextOption {
  text: PlainText;
  value: string;
}

/** A checkboxes element (its action fires on every tick; the answer is read on submit). */
export interface CheckboxesElement extends slack.Checkboxes {
  type: "checkboxes";
  action_id: string;
  options: CheckboxOption[];
}

/** A plain-text input of a modal. */
export interface PlainTextInputElement extends slack.PlainTextInput {
  type: "plain_text_input";
  action_id: string;
  multiline?: boolean;
  min_length?: number;
  max_length?: number;
  placeholder?: PlainText;
  initial_value?: string;
}

/** An input block of a modal. */
export interface InputBlock extends slack.InputBlock {
  type: "input";
  block_id: string;
  label: PlainText;
  element: PlainTextInputElement;
  hint?: PlainText;
  optional?: boolean;
}

/** An actions block that may also hold checkboxes. */
export interface InteractiveActionsBlock extends slack.ActionsBlock {
  type: "actions";
  block_id?: string;
  elements: Array<ButtonElement | CheckboxesElement>;
}

/** The blocks of messages with checkboxes and of modals (each a subtype of `@slack/types`' `KnownBlock`). */
export type InteractiveBlock = Block | InteractiveActionsBlock | InputBlock;

/** A message whose blocks may hold checkboxes. */
export interface InteractiveMessage {
  text: string;
  blocks: InteractiveBlock[];
}

/** A modal view, as `views.open` takes it. */
export interface ModalView extends slack.ModalView {
  type: "modal";
  callback_id: string;
  private_metadata: string;
  title: PlainText;
  submit: PlainText;
  close: PlainText;
  blocks: InteractiveBlock[];
}

/** `view.state.values` (modal) or `body.state.values` (message): block id → action id → state. */
export type StateValues = Record<
  string,
  Record<string, { value?: string | null; selected_options?: Array<{ value: string }> | null }>
>;

/** A checkbox option; a value that would not fit is a bug in the caller. */
export function checkboxOption(text: string, value: string): CheckboxOption {
  if (value.length > MAX_OPTION_VALUE) throw new RangeError(`checkbox value is ${value.length} characters`);
  return { text: plain(text, MAX_OPTION_TEXT), value };
}

/** A modal; its metadata must fit (3000), titles are clipped to 24. */
export function modal(opts: {
  callbackId: string;
  metadata: string;
  title: string;
  submit: string;
  close: string;
  blocks: InteractiveBlock[];
}): ModalView {
  if (opts.metadata.length > MAX_PRIVATE_METADATA)
    throw new RangeError(`private_metadata is ${opts.metadata.length} characters`);
  return {
    type: "modal",
    callback_id: opts.callbackId,
    private_metadata: opts.metadata,
    title: plain(opts.title, MAX_MODAL_TITLE),
    submit: plain(opts.submit, MAX_MODAL_BUTTON),
    close: plain(opts.close, MAX_MODAL_BUTTON),
    blocks: opts.blocks,
  };
}

/** An input block holding a plain-text input. */
export function textInput(opts: {
  blockId: string;
  actionId: string;
  label: string;
  multiline?: boolean;
  minLength?: number;
  maxLength?: number;
  placeholder?: string;
  hint?: string;
  optional?: boolean;
  initialValue?: string;
}): InputBlock {
  return {
    type: "input",
    block_id: opts.blockId.slice(0, MAX_BLOCK_ID),
    label: plain(opts.label, MAX_INPUT_LABEL),
    element: {
      type: "plain_text_input",
      action_id: opts.actionId,
      ...(opts.multiline ? { multiline: true } : {}),
      ...(opts.minLength !== undefined ? { min_length: opts.minLength } : {}),
      ...(opts.maxLength !== undefined ? { max_length: opts.maxLength } : {}),
      ...(opts.placeholder ? { placeholder: plain(opts.placeholder, MAX_PLACEHOLDER) } : {}),
      // A prefilled value (a plan to revise) is posted to Slack like any text: its secrets too are redacted.
      ...(opts.initialValue !== undefined ? { initial_value: redactText(opts.initialValue) } : {}),
    },
    ...(opts.hint ? { hint: plain(opts.hint, MAX_INPUT_HINT) } : {}),
    ...(opts.optional ? { optional: true } : {}),
  };
}

/** The text typed in an input ("" when absent). */
export const inputValue = (values: StateValues, blockId: string, actionId: string): string =>
  values[blockId]?.[actionId]?.value ?? "";

/** Characters of blocks a list message may use, leaving room for what Slack adds. */
const LIST_CHARS = MAX_MESSAGE_CHARS - 1000;

const size = (blocks: InteractiveBlock[]): number => JSON.stringify(blocks).length;

/**
 * `head` followed by as many items (each a group of blocks) as fit in one message — 50 blocks and
 * about 11k characters — and a context line counting the items left out, never dropped silently.
 * The first item is always shown (each item fits a message on its own).
 */
export function fitItems(
  head: InteractiveBlock[],
  items: InteractiveBlock[][],
  more: (n: number) => string,
  maxBlocks: number = MAX_MESSAGE_BLOCKS,
): InteractiveBlock[] {
  const out = [...head];
  let chars = size(out);
  for (const [index, item] of items.entries()) {
    const left = items.length - index - 1;
    const reserve = left > 0 ? 1 : 0;
    const itemChars = size(item);
    if (
      index > 0 &&
      (out.length + item.length + reserve > maxBlocks || chars + itemChars + (reserve ? 200 : 0) > LIST_CHARS)
    ) {
      out.push(context([more(items.length - index)]));
      return out;
    }
    out.push(...item);
    chars += itemChars;
  }
  return out;
}
