import { type Locale, t } from "../../i18n/index.js";
import type { QuotedMessage, ThreadContext } from "./model.js";

// How other people's words reach an agent: inside one block that our own words open and close,
// naming whose words they are and that they are not instructions. Inside it every line starts
// with the quote sign and a message's text is indented under its author line, so nothing a person
// wrote can end the block, pass for an author line or stand at the start of a line: a
// `CODEXPI_…` keyword in it is text to the agent, and stays a quote (inert, see
// protocol/markers.ts) if the agent repeats it.

const QUOTE = ">";

// Every line break a model could read as one (CR, VT, FF, NEL, LS, PS) becomes "\n" before the
// lines are quoted; other control characters and bidirectional overrides are dropped.
const LINE_BREAKS = /\r\n|[\r\v\f\u0085\u2028\u2029]/g;
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A person's text as plain lines: one kind of line break, no control characters. */
function plainLines(text: string): string[] {
  return text.replace(LINE_BREAKS, "\n").replace(INVISIBLE, "").split("\n");
}

/** A name on one line (display names and channel names are people's words too). */
export function oneLine(text: string, max = 80): string {
  const flat = plainLines(text).join(" ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat || "?";
}

/** `2026-12-02 10:31 UTC`: the same in every locale, and no time zone to guess. */
export function utc(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const quoted = (text: string) => (text ? `${QUOTE} ${text}` : QUOTE);
const indented = (text: string) => plainLines(text).map((l) => quoted(`  ${l}`));

function messageLines(locale: Locale, m: QuotedMessage): string[] {
  const lines = [quoted(`${oneLine(m.author)}, ${utc(m.at)}:`), ...indented(m.text)];
  if (m.fullLength)
    lines.push(quoted(`  ${t(locale, "agent.context.cut", { shown: m.text.length, total: m.fullLength })}`));
  return lines;
}

/** The quoted lines of a context: the channel, its topic, the messages and where some were left out. */
function quotedLines(locale: Locale, c: ThreadContext): string[] {
  const lines: string[] = [];
  if (c.channel?.name)
    lines.push(quoted(t(locale, "agent.context.channel", { name: oneLine(c.channel.name) })));
  if (c.channel?.topic?.trim())
    lines.push(quoted(t(locale, "agent.context.topic")), ...indented(c.channel.topic));
  const [first, ...others] = c.messages;
  const gap = (key: "agent.context.omitted" | "agent.context.omitted_between") =>
    c.omitted > 0 ? [quoted(t(locale, key, { n: c.omitted }))] : [];
  if (first?.root) lines.push(...messageLines(locale, first), ...gap("agent.context.omitted_between"));
  else lines.push(...gap("agent.context.omitted"), ...(first ? messageLines(locale, first) : []));
  for (const m of others) lines.push(...messageLines(locale, m));
  return lines;
}

/**
 * The prompt given to Codex: the person's prompt as it is when there is no context; otherwise
 * the quoted context first, then the request. `tag` (the queue item's id) names the block's
 * bounds, which the people quoted could not know when they wrote.
 */
export function promptWithContext(
  prompt: string,
  context: ThreadContext | null,
  tag: string,
  locale: Locale,
): string {
  if (!context) return prompt;
  const request = `${t(locale, "agent.context.request")}\n${prompt}`;
  if (context.unavailable)
    return `${t(locale, `agent.context.unavailable.${context.unavailable}`)}\n\n${request}`;
  const lines = quotedLines(locale, context);
  if (!context.messages.length && !context.channel?.topic?.trim() && !context.omitted) return prompt;
  const what = t(locale, `agent.context.what.${context.kind}`);
  return [
    t(locale, "agent.context.open", { tag, what, quote: QUOTE }),
    ...lines,
    t(locale, "agent.context.close", { tag }),
    "",
    request,
  ].join("\n");
}

/** Who wrote a prompt, when the agent is told (a display name), and whether they started the conversation. */
export interface Writer {
  name: string | null;
  isAuthor: boolean;
}

/**
 * The prompt with the line that says who wrote it (DESIGN "A thread is the team's"): a follow-up
 * a teammate wrote, or any follow-up of a thread others wrote in, so that the agent knows who
 * says what. A prompt whose writer is not named (`name` null) is left as it is.
 */
export function withWriter(prompt: string, writer: Writer, locale: Locale): string {
  if (writer.name === null) return prompt;
  const key = writer.isAuthor ? "agent.writer.author" : "agent.writer.teammate";
  return `${t(locale, key, { name: oneLine(writer.name) })}\n${prompt}`;
}
