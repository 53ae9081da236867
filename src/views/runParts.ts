import type { RunDetail, RunStage, RunStatus, RunStepView, StepStatus } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { actions, button, context, section, type Block } from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import type { InteractiveBlock } from "./interactive.js";
import { clip, MAX_SECTION_TEXT, splitForSlack } from "./limits.js";
import { escapeClip, userMention } from "./mrkdwn.js";

// What every run view is made of: how a run, its steps and a verdict's subject read, lines and
// text fitted into a message's budget, and the blocked run's buttons. Pure.

/** Correction rounds the master may ask per step (the engine's MAX_CORRECTION_ROUNDS). */
const MAX_ROUNDS = 3;

/** Emoji of a run's status. */
export const RUN_EMOJI = {
  RUNNING: "⚙️",
  BLOCKED: "⛔",
  COMPLETED: "✅",
  CANCELLED: "🛑",
} as const satisfies Record<RunStatus, string>;
const STEP_EMOJI = {
  PENDING: "▫️",
  WORKING: "⚙️",
  REVIEWING: "🔎",
  CORRECTING: "✏️",
  APPROVED: "✅",
  BLOCKED: "⛔",
} as const satisfies Record<StepStatus, string>;

/** Text on one line, escaped and clipped. */
export const oneLine = (text: string, max: number): string =>
  escapeClip(text.trim().replace(/\s+/g, " "), max);
/** An identifier or a risk in inline code (a backtick inside would end it). */
export const code = (text: string, max: number): string => oneLine(text, max).replace(/`/g, "'");
/** The "… and n more" line closing a list cut short. */
export const more = (locale: Locale) => (n: number) => t(locale, "common.more", { n });
/** Characters of blocks as Slack counts them (their JSON). */
export const size = (blocks: readonly InteractiveBlock[]): number => JSON.stringify(blocks).length;

/** A run's status in words. */
export const runStatusLabel = (locale: Locale, status: RunStatus): string =>
  t(locale, `run_view.status.${status}`);
/** A run's stage in words (who holds the ball). */
export const runStageLabel = (locale: Locale, stage: RunStage): string =>
  t(locale, `run_view.stage.${stage}`);
const stepStatusLabel = (locale: Locale, status: StepStatus): string => t(locale, `run_view.step.${status}`);

/** The step a verdict or a block is about, as people read it. */
export interface StepRef {
  order: number;
  title: string;
  projectName: string;
}

/** What a master's verdict is about. */
export type VerdictSubject = { kind: "plan" } | { kind: "final" } | ({ kind: "step" } & StepRef);

/** The step a verdict or a block is about, from a run's step. */
export const stepRef = (s: RunStepView): StepRef => ({
  order: s.order,
  title: s.title,
  projectName: s.project_name,
});

/** What a verdict is about, in words. */
export function subjectText(locale: Locale, s: VerdictSubject): string {
  if (s.kind === "plan") return t(locale, "run_view.subject.plan");
  if (s.kind === "final") return t(locale, "run_view.subject.final");
  return t(locale, "run_view.subject.step", {
    order: s.order,
    title: oneLine(s.title, 150),
    project: oneLine(s.projectName, 80),
  });
}

/** The run's state in a few lines: who started it, where it stands, the step at work. */
export function stateText(locale: Locale, run: RunDetail): string {
  const lines = [t(locale, "run_view.root_head", { user: userMention(run.owner_id), n: run.steps.length })];
  const status = `${RUN_EMOJI[run.status]} *${runStatusLabel(locale, run.status)}*`;
  lines.push(run.status === "RUNNING" ? `${status} · ${runStageLabel(locale, run.stage)}` : status);
  const current = run.steps.find((s) => s.id === run.current_step_id);
  if (current && (run.status === "RUNNING" || run.status === "BLOCKED")) {
    const step = t(locale, "run_view.current_step", {
      order: current.order,
      total: run.steps.length,
      title: oneLine(current.title, 150),
      project: oneLine(current.project_name, 80),
    });
    lines.push(
      run.status === "RUNNING" && run.correction_round > 0
        ? `${step} · ${t(locale, "run_view.correction_round", { n: run.correction_round, max: MAX_ROUNDS })}`
        : step,
    );
  }
  return lines.join("\n");
}

/** A step on one line: state, order, title, project. */
export const compactStep = (locale: Locale, s: RunStepView): string =>
  `${STEP_EMOJI[s.status]} ${s.order}. ${oneLine(s.title, 80)} · _${oneLine(s.project_name, 40)}_ · ${stepStatusLabel(locale, s.status)}`;

/** A step in full: state, phase, risk, attempts and the master's latest feedback. */
export function detailedStep(locale: Locale, s: RunStepView): string {
  const head = `${STEP_EMOJI[s.status]} *${s.order}. ${oneLine(s.title, 150)}* · ${oneLine(s.project_name, 60)} · ${stepStatusLabel(locale, s.status)}`;
  const facts = [
    ...(s.phase_label.trim() ? [oneLine(s.phase_label, 60)] : []),
    t(locale, "run_view.step_risk", { risk: code(s.risk, 50) }),
    ...(s.attempts > 0 ? [t(locale, "run_view.step_attempts", { n: s.attempts })] : []),
  ];
  const feedback = s.feedback?.trim() ? `\n> ${oneLine(s.feedback, 300)}` : "";
  return `${head}\n${facts.join(" · ")}${feedback}`;
}

/**
 * Lines packed into sections within a budget of characters and blocks; lines that do not fit are
 * counted in a final context line, never dropped silently.
 */
export function fitLines(
  lines: string[],
  o: { chars: number; blocks: number; idPrefix: string; more: (n: number) => string },
): Block[] {
  const out: Block[] = [];
  let current = "";
  let used = 0;
  let shown = 0;
  const flush = () => {
    if (current) out.push(section(current, { blockId: `${o.idPrefix}.${out.length}` }));
    current = "";
  };
  for (const raw of lines) {
    const line = clip(raw, MAX_SECTION_TEXT);
    const joins = Boolean(current) && current.length + 1 + line.length <= MAX_SECTION_TEXT;
    const blocksAfter = out.length + (current ? 1 : 0) + (joins ? 0 : 1);
    const reserve = shown + 1 < lines.length ? 1 : 0;
    // Each section costs its text plus about 80 characters of JSON.
    if (used + line.length + 81 > o.chars || blocksAfter + reserve > o.blocks) break;
    if (!joins) flush();
    current = current ? `${current}\n${line}` : line;
    used += line.length + (joins ? 1 : 81);
    shown++;
  }
  flush();
  if (shown < lines.length) out.push(context([o.more(lines.length - shown)]));
  return out;
}

/** Escaped text in at most `sections` sections; when longer, the last one ends with "…" and a note says how long it was. */
export function textSections(
  locale: Locale,
  escaped: string,
  o: { sections: number; idPrefix: string; title?: string; note?: (chars: number) => string; chars: number },
): Block[] {
  const prefix = o.title ? `*${o.title}*\n` : "";
  const chunks = splitForSlack(escaped, MAX_SECTION_TEXT - prefix.length).filter((c) => c.trim() !== "");
  const kept = chunks.slice(0, o.sections);
  const cut = chunks.length > kept.length;
  if (cut && kept.length)
    kept[kept.length - 1] = clip(
      kept[kept.length - 1] as string,
      MAX_SECTION_TEXT - prefix.length - 2,
    ).replace(/…?$/, "…");
  const blocks = kept.map((c, i) =>
    section(`${i === 0 ? prefix : ""}${c}`, { blockId: `${o.idPrefix}.${i}` }),
  );
  if (cut) blocks.push(context([(o.note ?? ((n) => t(locale, "run_view.clipped", { chars: n })))(o.chars)]));
  return blocks;
}

/** Resume and Revise, for the run's owner (or an admin); their value is the run id. */
export function blockedButtons(locale: Locale, runId: string): Block {
  return actions(
    [
      button({
        actionId: ACTIONS.runResume,
        text: t(locale, "run_view.resume"),
        value: runId,
        style: "primary",
      }),
      button({ actionId: ACTIONS.runRevise, text: t(locale, "run_view.revise"), value: runId }),
    ],
    BLOCKS.runActions,
  );
}
