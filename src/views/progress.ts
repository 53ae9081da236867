import type { PlanStep, Progress } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { redactText } from "../redaction.js";
import { context, section, type Block } from "./blocks.js";
import { splitForSlack } from "./limits.js";
import { escapeClip, markdownToMrkdwn } from "./mrkdwn.js";

const PLAN_STEPS = 12;

const detailText = (detail: string) =>
  // A command or file names, shown as code; backticks would close the span early.
  `\`${escapeClip(redactText(detail).replace(/\s+/g, " ").replace(/`/g, "'").trim(), 150)}\``;

/** The current activity in the person's language: its kind from the catalog, then its detail. */
export function progressLine(locale: Locale, p: Progress): string {
  if (p.kind === "reconnecting") return reconnectingLine(locale, p, detailText);
  const kind = t(locale, `progress.kind.${p.kind}`);
  return p.detail?.trim() ? t(locale, "progress.with_detail", { kind, detail: detailText(p.detail) }) : kind;
}

/**
 * "reconnecting to the model: <Codex's last error>, attempt N": what a turn that cannot reach its
 * model shows on its root and in its stream, rather than looking like one that works.
 */
export function reconnectingLine(locale: Locale, p: Progress, show: (detail: string) => string): string {
  return t(locale, "progress.reconnecting", {
    error: p.detail?.trim() ? show(p.detail) : "?",
    n: p.attempt ?? 1,
  });
}

/** The agent's plan as a checklist (at most a dozen steps, each clipped). */
export function planChecklist(locale: Locale, plan: PlanStep[]): string {
  const steps = plan
    .slice(0, PLAN_STEPS)
    .map((s) => `${s.done ? "☑" : "☐"} ${escapeClip(redactText(s.text).replace(/\s+/g, " ").trim(), 150)}`);
  if (plan.length > PLAN_STEPS) steps.push("…");
  return [`*${t(locale, "progress.plan")}*`, ...steps].join("\n");
}

/** The agent's latest interim message, quoted on one line (its answer is posted in the thread). */
export const interimQuote = (text: string): string =>
  `> _${escapeClip(redactText(text).replace(/\s+/g, " ").replace(/_/g, " ").trim(), 300)}_`;

/** A token count in the person's locale (thin spaces in French, commas in English). */
export const formatTokens = (locale: Locale, n: number): string =>
  new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-US").format(n);

const INTERIM_SECTION = 2_900;

/**
 * An interim message of a long turn, posted in its thread: a small label, then the agent's text
 * as written (markdown turned into mrkdwn, split across sections rather than cut).
 */
export function interimMessage(locale: Locale, text: string): { text: string; blocks: Block[] } {
  const label = t(locale, "interim.label");
  const parts = splitForSlack(markdownToMrkdwn(redactText(text)).trim(), INTERIM_SECTION);
  return {
    text: escapeClip(text.replace(/\s+/g, " ").trim(), 300),
    blocks: [context([`💬 _${label}_`]), ...parts.map((part) => section(part))],
  };
}
