import { redactText } from "../redaction.js";

/** Block Kit limits (checked against Slack's reference); views clip or split to stay within them. */
export const MAX_MESSAGE_BLOCKS = 50;
/** Blocks in a modal or the App Home. */
export const MAX_SURFACE_BLOCKS = 100;
export const MAX_SECTION_TEXT = 3000;
export const MAX_SECTION_FIELDS = 10;
export const MAX_FIELD_TEXT = 2000;
export const MAX_BUTTON_TEXT = 75;
export const MAX_BUTTON_VALUE = 2000;
export const MAX_ACTION_ID = 255;
export const MAX_BLOCK_ID = 255;
export const MAX_ACTIONS_ELEMENTS = 25;
export const MAX_CONTEXT_ELEMENTS = 10;
/** A text element of a context block. */
export const MAX_CONTEXT_TEXT = 2000;
export const MAX_HEADER_TEXT = 150;
export const MAX_MODAL_TITLE = 24;
export const MAX_MODAL_BUTTON = 24;
export const MAX_PRIVATE_METADATA = 3000;
export const MAX_CALLBACK_ID = 255;
export const MAX_CONFIRM_TITLE = 100;
export const MAX_CONFIRM_TEXT = 300;
export const MAX_CONFIRM_BUTTON = 30;
export const MAX_OPTION_TEXT = 75;
export const MAX_OPTION_VALUE = 150;
/** Slack truncates a message's top-level `text` beyond this. */
export const MAX_MESSAGE_TEXT = 40_000;
/** Slack's guidance: keep one message's blocks well under about 12k characters. */
export const MAX_MESSAGE_CHARS = 12_000;

const ELLIPSIS = "…";

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Moves a cut index back by one if it would separate a surrogate pair. */
function safeCut(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  return isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index))
    ? index - 1
    : index;
}

/**
 * `text` if it fits in `max` UTF-16 units (Slack's counting is never stricter), else its start
 * followed by an ellipsis, never separating a surrogate pair. Secrets are redacted (before the
 * cut, so that half a token is never shown): every text of a block passes here.
 */
export function clip(raw: string, max: number): string {
  const text = redactText(raw);
  if (text.length <= max) return text;
  if (max <= 0) return "";
  if (max === 1) return ELLIPSIS;
  const head = text.slice(0, safeCut(text, max - 1)).trimEnd();
  return head + ELLIPSIS;
}

/** A chunk of `splitWithFences`: the original slice, and the fence lines added around it. */
export interface FencedChunk {
  /** Reopens a code block the previous chunk had to close ("" when none). */
  reopen: string;
  /** An exact slice of the input; the bodies concatenate back to it. */
  body: string;
  /** Closes a code block left open at the end of the body ("" when none). */
  close: string;
}

interface FenceMark {
  start: number;
  /** Index just after the line's newline (or the text's end). */
  end: number;
  kind: "open" | "close";
  /** For an opener: the line that reopens the block in the next chunk. */
  line: string;
  /** The closing marker, e.g. "```". */
  marker: string;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/** Lines that open or close a fenced code block, in order. */
function scanFences(text: string): FenceMark[] {
  const marks: FenceMark[] = [];
  let open: { char: string; len: number } | null = null;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const lineEnd = nl === -1 ? text.length : nl;
    const end = nl === -1 ? text.length : nl + 1;
    const line = text.slice(start, lineEnd);
    const m = FENCE.exec(line);
    if (m) {
      const marker = m[1] as string;
      const rest = (m[2] as string).trim();
      if (open === null) {
        // "```code```" on one line is inline code, not an opener.
        if (!(marker[0] === "`" && rest.includes("`"))) {
          open = { char: marker[0] as string, len: marker.length };
          const reopen = line.trim().length <= 40 ? line.trim() : marker;
          marks.push({ start, end, kind: "open", line: reopen, marker });
        }
      } else if (marker[0] === open.char && marker.length >= open.len && rest === "") {
        marks.push({ start, end, kind: "close", line: line.trim(), marker });
        open = null;
      }
    }
    start = end;
  }
  return marks;
}

/** The block still open at position `at` (its opener mark), if any. */
function openAt(marks: FenceMark[], at: number): FenceMark | null {
  let current: FenceMark | null = null;
  for (const m of marks) {
    if (m.start >= at) break;
    current = m.kind === "open" ? m : null;
  }
  return current;
}

/** The fence line that `at` falls strictly inside of, if any. */
const markAround = (marks: FenceMark[], at: number): FenceMark | undefined =>
  marks.find((m) => m.start < at && at < m.end);

/** Where to cut `text` between `from` and `limit`: a paragraph, a line, a space, else anywhere. */
function chooseCut(text: string, from: number, limit: number): number {
  const window = text.slice(from, limit);
  const span = limit - from;
  const candidates: Array<[number, number]> = [
    [window.lastIndexOf("\n\n"), 2],
    [window.lastIndexOf("\n"), 1],
    [window.lastIndexOf(" "), 1],
  ];
  for (const minShare of [0.5, 0.3, 0.1]) {
    for (const [index, len] of candidates) {
      if (index >= 0 && index + len > span * minShare)
        return avoidInsideTokens(text, from, from + index + len);
    }
  }
  return avoidInsideTokens(text, from, safeCut(text, limit));
}

/** Moves a cut back out of a `<url|text>` link or an `&amp;` entity when it can. */
function avoidInsideTokens(text: string, from: number, cut: number): number {
  const lineStart = Math.max(from, text.lastIndexOf("\n", cut - 1) + 1);
  const before = text.slice(lineStart, cut);
  const lt = before.lastIndexOf("<");
  if (lt >= 0 && !before.slice(lt).includes(">") && text.indexOf(">", cut) !== -1 && lineStart + lt > from)
    return lineStart + lt;
  const amp = before.lastIndexOf("&");
  if (amp >= 0 && cut - (lineStart + amp) <= 5 && !before.slice(amp).includes(";") && lineStart + amp > from)
    return lineStart + amp;
  return cut;
}

/**
 * Splits text into chunks whose bodies concatenate back to it exactly, each rendered chunk
 * (`reopen + body + close`) at most `max` long. Cuts prefer paragraph, then line, then word
 * boundaries. A fenced code block cut in two is closed at the end of one chunk and reopened
 * (with its info string) at the start of the next, so each chunk renders on its own.
 */
export function splitWithFences(text: string, max: number): FencedChunk[] {
  if (!Number.isInteger(max) || max < 64)
    throw new RangeError(`splitForSlack: max must be an integer ≥ 64, got ${max}`);
  if (text === "") return [];
  const marks = scanFences(text);
  const reserve = marks.length === 0 ? 0 : 1 + Math.max(...marks.map((m) => m.marker.length));
  const chunks: FencedChunk[] = [];
  let pos = 0;
  let reopen = "";
  while (pos < text.length) {
    if (reopen.length + (text.length - pos) <= max) {
      chunks.push({ reopen, body: text.slice(pos), close: "" });
      break;
    }
    let budget = max - reopen.length - reserve;
    if (budget < 16) {
      // Only with absurd fence lines: give up balancing rather than loop.
      reopen = "";
      budget = max - reserve;
    }
    let cut = chooseCut(text, pos, pos + budget);
    const inside = markAround(marks, cut);
    if (inside) cut = inside.start > pos ? inside.start : cut;
    let open = openAt(marks, cut);
    // Do not end a chunk right after an opener (an empty block) nor right before its closer.
    if (open && open.start > pos && text.slice(open.end, cut).trim() === "") {
      cut = open.start;
      open = openAt(marks, cut);
    }
    if (open) {
      const closer = marks.find((m) => m.start === cut && m.kind === "close");
      if (closer && reopen.length + (closer.end - pos) <= max) {
        cut = closer.end;
        open = null;
      }
    }
    if (cut <= pos) cut = Math.max(pos + 1, safeCut(text, pos + budget));
    const body = text.slice(pos, cut);
    const close = open ? (body.endsWith("\n") ? "" : "\n") + open.marker : "";
    chunks.push({ reopen, body, close });
    reopen = open ? `${open.line}\n` : "";
    pos = cut;
  }
  return chunks;
}

/**
 * Splits long text into chunks of at most `max` characters for Slack, on paragraph or line
 * boundaries when possible, keeping ``` code blocks balanced in every chunk; nothing of the
 * content is dropped (`splitWithFences` gives the exact slices) but secrets, redacted before the
 * split so that one cut in two is still caught. Empty text gives no chunk.
 */
export function splitForSlack(text: string, max: number): string[] {
  return splitWithFences(redactText(text), max).map((c) => c.reopen + c.body + c.close);
}
