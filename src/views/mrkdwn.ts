import { redactText } from "../redaction.js";
import { clip } from "./limits.js";
import { misleadingLabel } from "./linkLabels.js";

/**
 * Escapes the three characters Slack reserves for its control sequences (`<@U…>`, links), and
 * redacts secrets: every text from agents and people passes here on its way to Slack.
 */
export function escapeMrkdwn(text: string): string {
  return redactText(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escaped text clipped to `max`, never leaving half an entity (`&am…`) before the ellipsis. */
export function escapeClip(text: string, max: number): string {
  // Redacted before the cut: a secret the cut would halve is still recognised whole.
  const clean = redactText(text);
  // Escaping only lengthens text: the first max + 1 characters decide the result.
  const escaped = escapeMrkdwn(clean.length > max + 1 ? clean.slice(0, max + 1) : clean);
  if (escaped.length <= max) return escaped;
  return clip(escaped, max).replace(/&(?:a(?:m(?:p)?)?|l(?:t)?|g(?:t)?)?…$/, "…");
}

/** A user mention for a Slack user id; anything else is shown as escaped text. */
export const userMention = (id: string): string =>
  /^[UW][A-Z0-9]{2,}$/.test(id) ? `<@${id}>` : escapeMrkdwn(id);

/** A channel mention for a Slack channel id; anything else is shown as escaped text. */
export const channelMention = (id: string): string =>
  /^[CGD][A-Z0-9]{2,}$/.test(id) ? `<#${id}>` : escapeMrkdwn(id);

/** A Slack link; the text is escaped, the URL made safe inside `<…|…>`. */
export function slackLink(url: string, text?: string): string {
  const safeUrl = url
    .replace(/&/g, "&amp;")
    .replace(/</g, "%3C")
    .replace(/>/g, "%3E")
    .replace(/\|/g, "%7C")
    .replace(/ /g, "%20");
  return text ? `<${safeUrl}|${escapeMrkdwn(text)}>` : `<${safeUrl}>`;
}

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const BULLET = /^([ \t]*)[-*+][ \t]+(.*)$/;
const ORDERED = /^([ \t]*)(\d{1,9})[.)][ \t]+(.*)$/;
const SAFE_SCHEME = /^(?:https?|mailto|ftp):/i;

/**
 * GitHub Markdown (Codex's answers) to Slack mrkdwn: bold, italic, strikethrough, headings (bold
 * lines), links and images (`<url|text>`, or `<url>` when the text names another address than
 * the URL), bullets (`•`), tables (aligned, in a code block).
 * `&`, `<` and `>` are escaped everywhere, also in code, where Slack shows them unchanged: an
 * agent's text can never become a mention or a broadcast. Code spans and fenced blocks are
 * otherwise left as they are (the fence's language tag is dropped).
 */
export function markdownToMrkdwn(md: string): string {
  // Redacted first: conversion must never see (or split) a secret.
  const lines = redactText(md)
    .replace(/\r\n?/g, "\n")
    .replace(/\u0000/g, "")
    .split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const fence = FENCE_OPEN.exec(line);
    if (fence && !((fence[2] as string).startsWith("`") && (fence[3] as string).includes("`"))) {
      const indent = (fence[1] as string).length;
      const marker = fence[2] as string;
      let j = i + 1;
      const body: string[] = [];
      for (; j < lines.length; j++) {
        const close = FENCE_CLOSE.exec(lines[j] as string);
        if (close && (close[1] as string)[0] === marker[0] && (close[1] as string).length >= marker.length)
          break;
        body.push(lines[j] as string);
      }
      out.push("```", ...body.map((l) => codeLine(dedent(l, indent))), "```");
      i = j + 1;
      continue;
    }
    if (
      line.includes("|") &&
      TABLE_DELIMITER.test(lines[i + 1] ?? "") &&
      (lines[i + 1] as string).includes("|")
    ) {
      let j = i + 2;
      while (j < lines.length && (lines[j] as string).includes("|") && (lines[j] as string).trim() !== "")
        j++;
      out.push("```", ...renderTable(line, lines[i + 1] as string, lines.slice(i + 2, j)), "```");
      i = j;
      continue;
    }
    out.push(convertLine(line));
    i++;
  }
  return out.join("\n");
}

function dedent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && (line[n] === " " || line[n] === "\t")) n++;
  return line.slice(n);
}

/** A code line: escaped, and with any ``` broken up so that it cannot end Slack's block early. */
const codeLine = (line: string): string =>
  escapeMrkdwn(line).replace(/`{3,}/g, (run) => run.split("").join("\u200b"));

function convertLine(line: string): string {
  if (line.trim() === "") return "";
  const heading = HEADING.exec(line);
  if (heading) {
    const text = inline(heading[2] ?? "", { strong: "", em: "_" }).trim();
    return text ? `*${text}*` : "";
  }
  if (RULE.test(line)) return "──────────";
  const quote = QUOTE.exec(line);
  if (quote) return `> ${convertLine((quote[1] as string).replace(/^(?:[ \t]*>)+[ \t]?/, ""))}`.trimEnd();
  const bullet = BULLET.exec(line);
  if (bullet) {
    const task = /^\[([ xX])\][ \t]+(.*)$/.exec(bullet[2] as string);
    const rest = task
      ? `${task[1] === " " ? "☐" : "☑"} ${inline(task[2] as string)}`
      : inline(bullet[2] as string);
    return `${bullet[1]}• ${rest}`;
  }
  const ordered = ORDERED.exec(line);
  if (ordered) return `${ordered[1]}${ordered[2]}. ${inline(ordered[3] as string)}`;
  return inline(line);
}

interface Markers {
  strong: string;
  em: string;
}

const SLACK_MARKERS: Markers = { strong: "*", em: "_" };
const NO_MARKERS: Markers = { strong: "", em: "" };

/** Inline Markdown to mrkdwn; code, links and URLs are set aside first so nothing touches them. */
function inline(text: string, markers: Markers = SLACK_MARKERS): string {
  const slots: string[] = [];
  const hold = (s: string): string => `\u0000${slots.push(s) - 1}\u0000`;
  let s = text.replace(/(?<!`)(`+)([\s\S]*?[^`])\1(?!`)/g, (span) => hold(escapeMrkdwn(span)));
  s = s.replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => hold(escapeMrkdwn(c)));
  const linkText = (raw: string): string =>
    emphasis(escapeMrkdwn(raw), NO_MARKERS).replace(/\u0000(\d+)\u0000/g, (_, n: string) =>
      (slots[Number(n)] ?? "").replace(/^`+|`+$/g, ""),
    );
  const link = (raw: string, target: string): string => {
    const url = target.replace(/^<|>$/g, "").replace(/\\(.)/g, "$1");
    const label = linkText(raw);
    // A label that names another address than the target would disguise the link: the target itself is shown.
    const disguised = label !== "" && misleadingLabel(unescapeMrkdwn(label), url);
    if (SAFE_SCHEME.test(url))
      return hold(label && !disguised ? `<${slackUrl(url)}|${label}>` : `<${slackUrl(url)}>`);
    return hold(label && label !== escapeMrkdwn(url) ? `${label} (${escapeMrkdwn(url)})` : escapeMrkdwn(url));
  };
  const target = String.raw`(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*`;
  const label = String.raw`((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)`;
  s = s.replace(new RegExp(String.raw`!\[${label}\]\(\s*${target}\)`, "g"), (_, alt: string, url: string) =>
    link(alt, url),
  );
  s = s.replace(new RegExp(String.raw`\[${label}\]\(\s*${target}\)`, "g"), (_, txt: string, url: string) =>
    link(txt, url),
  );
  s = s.replace(/<((?:https?|mailto|ftp):[^\s<>]+)>/gi, (_, url: string) => hold(`<${slackUrl(url)}>`));
  s = s.replace(/<([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/g, (_, mail: string) =>
    hold(`<mailto:${slackUrl(mail)}|${escapeMrkdwn(mail)}>`),
  );
  s = s.replace(/\bhttps?:\/\/[^\s<>"`\u0000]+/g, (url) => {
    const kept = trimUrl(url);
    return hold(slackUrl(kept)) + url.slice(kept.length);
  });
  s = escapeMrkdwn(s);
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "~$1~");
  s = emphasis(s, markers);
  return s.replace(/\u0000(\d+)\u0000/g, (_, n: string) => slots[Number(n)] ?? "");
}

const unescapeMrkdwn = (text: string): string =>
  text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

const slackUrl = (url: string): string =>
  url.replace(/&/g, "&amp;").replace(/\|/g, "%7C").replace(/ /g, "%20");

/** Drops trailing punctuation that ends a sentence rather than the URL (a `)` only if unbalanced). */
function trimUrl(url: string): string {
  let u = url;
  for (;;) {
    const last = u[u.length - 1];
    if (last && ".,;:!?'\"]*_".includes(last)) u = u.slice(0, -1);
    else if (last === ")" && (u.match(/\)/g) ?? []).length > (u.match(/\(/g) ?? []).length)
      u = u.slice(0, -1);
    else return u;
  }
}

interface Delimiter {
  char: "*" | "_";
  start: number;
  length: number;
  remaining: number;
  canOpen: boolean;
  canClose: boolean;
  active: boolean;
  openMarkup: string;
  closeMarkup: string;
}

const isSpace = (c: string | undefined): boolean => c === undefined || /\s/u.test(c);
const isPunct = (c: string | undefined): boolean => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/**
 * CommonMark's emphasis algorithm (delimiter runs, flanking rules, the rule of three), emitting
 * `markers` instead of HTML: `***a** b*`, `**a *b***`, `snake_case` all come out right.
 */
function emphasis(text: string, markers: Markers): string {
  const delims: Delimiter[] = [];
  for (const m of text.matchAll(/\*+|_+/g)) {
    const start = m.index;
    const length = m[0].length;
    const before = text[start - 1];
    const after = text[start + length];
    const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
    const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
    const char = m[0][0] as "*" | "_";
    const canOpen = char === "*" ? left : left && (!right || isPunct(before));
    const canClose = char === "*" ? right : right && (!left || isPunct(after));
    delims.push({
      char,
      start,
      length,
      remaining: length,
      canOpen,
      canClose,
      active: true,
      openMarkup: "",
      closeMarkup: "",
    });
  }
  for (let c = 0; c < delims.length; c++) {
    const closer = delims[c] as Delimiter;
    if (!closer.canClose) continue;
    while (closer.remaining > 0) {
      let o = c - 1;
      for (; o >= 0; o--) {
        const d = delims[o] as Delimiter;
        if (!d.active || d.char !== closer.char || !d.canOpen || d.remaining === 0) continue;
        const blocked =
          (d.canClose || closer.canOpen) &&
          (d.length + closer.length) % 3 === 0 &&
          !(d.length % 3 === 0 && closer.length % 3 === 0);
        if (!blocked) break;
      }
      if (o < 0) break;
      const opener = delims[o] as Delimiter;
      const used = opener.remaining >= 2 && closer.remaining >= 2 ? 2 : 1;
      const mark = used === 2 ? markers.strong : markers.em;
      opener.remaining -= used;
      closer.remaining -= used;
      opener.openMarkup = mark + opener.openMarkup;
      closer.closeMarkup += mark;
      for (let k = o + 1; k < c; k++) (delims[k] as Delimiter).active = false;
    }
  }
  let out = "";
  let pos = 0;
  for (const d of delims) {
    out += text.slice(pos, d.start) + d.closeMarkup + d.char.repeat(d.remaining) + d.openMarkup;
    pos = d.start + d.length;
  }
  return out + text.slice(pos);
}

/** Table cells as plain text: markup that a code block would show literally is removed. */
function plainCell(cell: string): string {
  const s = cell
    .replace(/!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g, (_, t: string, u: string) => t || u)
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\\\|/g, "|");
  return emphasis(s, NO_MARKERS);
}

function splitRow(row: string): string[] {
  let s = row.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim());
}

const width = (s: string): number => Array.from(s).length;

/** A Markdown table as aligned monospace rows (escaped for Slack). */
function renderTable(header: string, delimiter: string, rows: string[]): string[] {
  const grid = [header, ...rows].map((r) => splitRow(r).map(plainCell));
  const aligns = splitRow(delimiter).map((d) =>
    d.endsWith(":") ? (d.startsWith(":") ? "center" : "right") : "left",
  );
  const columns = Math.max(...grid.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(3, ...grid.map((r) => width(r[c] ?? ""))),
  );
  const pad = (text: string, c: number): string => {
    const room = (widths[c] as number) - width(text);
    const align = aligns[c] ?? "left";
    if (align === "right") return " ".repeat(room) + text;
    if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(Math.ceil(room / 2));
    return text + " ".repeat(room);
  };
  const line = (cells: string[]): string => `| ${widths.map((_, c) => pad(cells[c] ?? "", c)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  const [head = [], ...body] = grid;
  return [line(head), rule, ...body.map(line)].map(codeLine);
}
