import {
  type BlockCode,
  type RunDetail,
  type RunStage,
  type RunStatus,
  type SelfRepairStatus,
  canRun,
} from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { context, section, type Block, type SlackMessage } from "./blocks.js";
import { BLOCKS } from "./ids.js";
import { clip, MAX_MESSAGE_BLOCKS, MAX_MESSAGE_CHARS, MAX_SECTION_TEXT, splitForSlack } from "./limits.js";
import { escapeClip, escapeMrkdwn, markdownToMrkdwn } from "./mrkdwn.js";
import {
  blockedButtons,
  compactStep,
  fitLines,
  more,
  oneLine,
  RUN_EMOJI,
  runStageLabel,
  runStatusLabel,
  size,
  stateText,
  stepRef,
  subjectText,
  type StepRef,
  type VerdictSubject,
} from "./runParts.js";

// The run's thread: its root (edited as the run moves), the blocked message, the master's
// verdicts and its final report. Pure.

/** Characters of sections per message when long text is split across messages. */
const SECTIONS_PER_MESSAGE = 3;

/** The hint closing the thread's root message. */
const threadHint = (locale: Locale): Block => context([t(locale, "run_view.thread_hint")], BLOCKS.runHint);

/**
 * The run thread's root message, edited as the run moves: who started it, its status and stage,
 * the step at work, and every step with its state (a long plan is counted, not cut).
 */
export function runRootMessage(locale: Locale, run: RunDetail): SlackMessage {
  const head: Block[] = [section(stateText(locale, run), { blockId: BLOCKS.runState })];
  const tail: Block[] = [threadHint(locale)];
  const budget = MAX_MESSAGE_CHARS - 1000 - size(head) - size(tail);
  const steps = fitLines(
    run.steps.map((s) => compactStep(locale, s)),
    {
      chars: budget,
      blocks: MAX_MESSAGE_BLOCKS - head.length - tail.length,
      idPrefix: BLOCKS.runSteps,
      more: more(locale),
    },
  );
  return {
    text: `${RUN_EMOJI[run.status]} ${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`,
    blocks: [...head, ...steps, ...tail],
  };
}

/** The run's current block as the blocked message shows it. */
export interface BlockedInput {
  runId: string;
  /** The run's status now: the buttons show only while it is still BLOCKED. */
  runStatus: RunStatus;
  stage: RunStage | null;
  code: BlockCode | null;
  error: string;
  step: StepRef | null;
  selfRepair: { status: SelfRepairStatus; feedback: string | null } | null;
}

/** The blocked message's input for a run's current block. */
export function blockedInputOf(run: RunDetail): BlockedInput {
  const step = run.steps.find((s) => s.id === run.current_step_id);
  const onStep = run.blocked_stage === "AGENT" || run.blocked_stage === "SUPERVISOR";
  return {
    runId: run.id,
    runStatus: run.status,
    stage: run.blocked_stage,
    code: run.block_code,
    error: run.error ?? "",
    step: step && onStep ? stepRef(step) : null,
    selfRepair: run.self_repair
      ? { status: run.self_repair.status, feedback: run.self_repair.feedback }
      : null,
  };
}

/**
 * A blocked run, in its thread: where and why it stopped (the reason clipped; the verdict above
 * and `/codex run` have it in full), the self-repair's state, and Resume / Revise buttons while
 * the run is still BLOCKED; once it moved on, the same message says so, without buttons.
 */
export function runBlockedMessage(locale: Locale, b: BlockedInput): SlackMessage {
  const where = b.step
    ? subjectText(locale, { kind: "step", ...b.step })
    : b.stage
      ? runStageLabel(locale, b.stage)
      : runStatusLabel(locale, "BLOCKED");
  const lines = [t(locale, "run_view.blocked_title", { where })];
  if (b.code) lines.push(t(locale, `run_view.block_code.${b.code}`));
  const error = b.error.trim();
  if (error) lines.push(`> ${escapeClip(error, 1500).split("\n").slice(0, 25).join("\n> ")}`);
  const blocks: Block[] = [section(lines.join("\n"), { blockId: BLOCKS.runBlocked })];
  if (error.length > 1500 || error.split("\n").length > 25)
    blocks.push(context([t(locale, "run_view.full_text", { chars: error.length })]));
  if (b.selfRepair) {
    const feedback = b.selfRepair.feedback?.trim() ? `\n> ${oneLine(b.selfRepair.feedback, 1000)}` : "";
    blocks.push(
      section(
        `🔧 ${t(locale, "common.labelled", { label: `*${t(locale, "run_view.repair_title")}*`, value: t(locale, `run_view.repair.${b.selfRepair.status}`) })}${feedback}`,
        { blockId: BLOCKS.runRepair },
      ),
    );
  }
  if (canRun(b.runStatus, "resume")) {
    blocks.push(context([t(locale, "run_view.blocked_help")]));
    blocks.push(blockedButtons(locale, b.runId));
  } else {
    blocks.push(
      context([
        `${RUN_EMOJI[b.runStatus]} ${t(locale, "run_view.blocked_resolved", { status: runStatusLabel(locale, b.runStatus) })}`,
      ]),
    );
  }
  const text = `⛔ ${t(locale, "run_view.title")} · ${runStatusLabel(locale, "BLOCKED")}${error ? t(locale, "common.labelled", { label: "", value: oneLine(error, 200) }) : ""}`;
  return { text, blocks };
}

/**
 * Long mrkdwn after `head`, split into messages of at most three full sections (well under 12k
 * characters and 50 blocks each), at most `maxMessages`; beyond, the last section ends with "…"
 * and a context line says so (`note`). Code blocks stay balanced in every section.
 */
function splitMessages(
  locale: Locale,
  head: Block[],
  mrkdwn: string,
  o: {
    idPrefix: string;
    fallback: string;
    maxMessages: number;
    note: (chars: number) => string;
    chars: number;
  },
): SlackMessage[] {
  const chunks = splitForSlack(mrkdwn, MAX_SECTION_TEXT).filter((c) => c.trim() !== "");
  const max = o.maxMessages * SECTIONS_PER_MESSAGE;
  const cut = chunks.length > max;
  const kept = chunks.slice(0, max);
  if (cut)
    kept[kept.length - 1] = clip(kept[kept.length - 1] as string, MAX_SECTION_TEXT - 2).replace(/…?$/, "…");
  const groups: string[][] = [];
  for (let i = 0; i < kept.length; i += SECTIONS_PER_MESSAGE)
    groups.push(kept.slice(i, i + SECTIONS_PER_MESSAGE));
  if (groups.length === 0) groups.push([]);
  return groups.map((group, index) => {
    const blocks: Block[] = index === 0 ? [...head] : [];
    group.forEach((chunk, i) => blocks.push(section(chunk, { blockId: `${o.idPrefix}.${index}.${i}` })));
    if (index > 0)
      blocks.push(context([t(locale, "run_view.part", { index: index + 1, total: groups.length })]));
    if (cut && index === groups.length - 1) blocks.push(context([o.note(o.chars)]));
    return { text: index === 0 ? o.fallback : `${o.fallback} (${index + 1}/${groups.length})`, blocks };
  });
}

/** A master's verdict as posted in the run's thread. */
export interface VerdictInput {
  decision: string;
  feedback: string;
  subject: VerdictSubject;
}

const VERDICTS = ["approve", "correct", "block"] as const;

/**
 * A master's verdict in the run's thread: approve, correct or block, about the plan, a step or
 * the final report, with its feedback (escaped). Long feedback is split across messages; past
 * five messages it is clipped with "…" and a note pointing at `/codex run`, never cut silently.
 */
export function runVerdictMessages(locale: Locale, v: VerdictInput): SlackMessage[] {
  const decision = VERDICTS.find((d) => d === v.decision) ?? "block";
  const headText = t(locale, `run_view.verdict.${decision}`, { subject: subjectText(locale, v.subject) });
  const feedback = v.feedback.trim();
  const head = [section(headText, { blockId: BLOCKS.runVerdict })];
  const plainHead = headText.replace(/\*/g, "");
  const fallback = feedback
    ? t(locale, "common.labelled", { label: plainHead, value: oneLine(feedback, 200) })
    : plainHead;
  const body = feedback
    ? markdownToMrkdwn(feedback).trim()
    : `_${t(locale, "run_view.verdict.no_feedback")}_`;
  return splitMessages(locale, head, body || escapeMrkdwn(feedback), {
    idPrefix: `${BLOCKS.runVerdict}.part`,
    fallback,
    maxMessages: 5,
    chars: feedback.length,
    note: (chars) => t(locale, "run_view.full_text", { chars }),
  });
}

/** The master's final report in the run's thread, split across messages (never cut below ten messages). */
export function runFinalReport(locale: Locale, report: string): SlackMessage[] {
  const head = [section(t(locale, "run_view.final_head"), { blockId: BLOCKS.runReport })];
  const body = report.trim() ? markdownToMrkdwn(report).trim() : `_${t(locale, "answer.empty")}_`;
  return splitMessages(locale, head, body, {
    idPrefix: `${BLOCKS.runReport}.part`,
    fallback: t(locale, "run_view.final_head").replace(/\*/g, ""),
    maxMessages: 10,
    chars: report.length,
    note: (chars) => t(locale, "run_view.clipped", { chars }),
  });
}
