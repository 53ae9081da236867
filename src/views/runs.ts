import type { BlockCode, RunDetail, RunStage, RunStatus, RunStatusView, RunStepView, SelfRepairStatus, StepStatus } from "../engine/runs/index.js";
import { t, type Locale } from "../i18n/index.js";
import { actions, button, context, header, section, type Block, type SlackMessage } from "./blocks.js";
import { ACTIONS, BLOCKS, CALLBACKS, INPUTS } from "./ids.js";
import { inputValue, modal, textInput, type InteractiveBlock, type ModalView, type StateValues } from "./interactive.js";
import { clip, MAX_MESSAGE_BLOCKS, MAX_MESSAGE_CHARS, MAX_SECTION_TEXT, splitForSlack } from "./limits.js";
import { escapeClip, escapeMrkdwn, markdownToMrkdwn, userMention } from "./mrkdwn.js";

// The autonomous run in Slack: its thread's root (edited as the run moves), the master's verdicts
// and the blocked message in that thread, `/codex run`, and the plan modals. Pure.

/** The plan input of both modals (`view.state.values[blockId][actionId].value`). */
export const RUN_PLAN_INPUT = { blockId: BLOCKS.runPlan, actionId: INPUTS.runPlan } as const;
/** Slack's limit on a plain-text input's value (and so on a plan typed in a modal). */
export const MAX_PLAN_INPUT = 3000;
/** Correction rounds the master may ask per step (the engine's MAX_CORRECTION_ROUNDS). */
const MAX_ROUNDS = 3;
/** Characters of sections per message when long text is split across messages. */
const SECTIONS_PER_MESSAGE = 3;
/** Characters of an input's error message (Slack shows it under the field). */
const MAX_ERROR_TEXT = 2000;

const RUN_EMOJI = { RUNNING: "⚙️", BLOCKED: "⛔", COMPLETED: "✅", CANCELLED: "🛑" } as const satisfies Record<RunStatus, string>;
const STEP_EMOJI = { PENDING: "▫️", WORKING: "⚙️", REVIEWING: "🔎", CORRECTING: "✏️", APPROVED: "✅", BLOCKED: "⛔" } as const satisfies Record<StepStatus, string>;

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);
const code = (text: string, max: number): string => oneLine(text, max).replace(/`/g, "'");
const more = (locale: Locale) => (n: number) => t(locale, "common.more", { n });
const size = (blocks: readonly InteractiveBlock[]): number => JSON.stringify(blocks).length;

/** A run's status in words. */
export const runStatusLabel = (locale: Locale, status: RunStatus): string => t(locale, `run_view.status.${status}`);
/** A run's stage in words (who holds the ball). */
export const runStageLabel = (locale: Locale, stage: RunStage): string => t(locale, `run_view.stage.${stage}`);
const stepStatusLabel = (locale: Locale, status: StepStatus): string => t(locale, `run_view.step.${status}`);

/** The step a verdict or a block is about, as people read it. */
export interface StepRef {
  order: number;
  title: string;
  projectName: string;
}

/** What a master's verdict is about. */
export type VerdictSubject = { kind: "plan" } | { kind: "final" } | ({ kind: "step" } & StepRef);

const stepRef = (s: RunStepView): StepRef => ({ order: s.order, title: s.title, projectName: s.project_name });

function subjectText(locale: Locale, s: VerdictSubject): string {
  if (s.kind === "plan") return t(locale, "run_view.subject.plan");
  if (s.kind === "final") return t(locale, "run_view.subject.final");
  return t(locale, "run_view.subject.step", { order: s.order, title: oneLine(s.title, 150), project: oneLine(s.projectName, 80) });
}

/** The run's state in a few lines: who started it, where it stands, the step at work. */
function stateText(locale: Locale, run: RunDetail): string {
  const lines = [t(locale, "run_view.root_head", { user: userMention(run.owner_id), n: run.steps.length })];
  const status = `${RUN_EMOJI[run.status]} *${runStatusLabel(locale, run.status)}*`;
  lines.push(run.status === "RUNNING" ? `${status} · ${runStageLabel(locale, run.stage)}` : status);
  const current = run.steps.find((s) => s.id === run.current_step_id);
  if (current && (run.status === "RUNNING" || run.status === "BLOCKED")) {
    const step = t(locale, "run_view.current_step", { order: current.order, total: run.steps.length, title: oneLine(current.title, 150), project: oneLine(current.project_name, 80) });
    lines.push(run.status === "RUNNING" && run.correction_round > 0 ? `${step} · ${t(locale, "run_view.correction_round", { n: run.correction_round, max: MAX_ROUNDS })}` : step);
  }
  return lines.join("\n");
}

const compactStep = (locale: Locale, s: RunStepView): string =>
  `${STEP_EMOJI[s.status]} ${s.order}. ${oneLine(s.title, 80)} · _${oneLine(s.project_name, 40)}_ · ${stepStatusLabel(locale, s.status)}`;

function detailedStep(locale: Locale, s: RunStepView): string {
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
function fitLines(lines: string[], o: { chars: number; blocks: number; idPrefix: string; more: (n: number) => string }): Block[] {
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
    { chars: budget, blocks: MAX_MESSAGE_BLOCKS - head.length - tail.length, idPrefix: BLOCKS.runSteps, more: more(locale) },
  );
  return { text: `${RUN_EMOJI[run.status]} ${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`, blocks: [...head, ...steps, ...tail] };
}

/** Escaped text in at most `sections` sections; when longer, the last one ends with "…" and a note says how long it was. */
function textSections(locale: Locale, escaped: string, o: { sections: number; idPrefix: string; title?: string; note?: (chars: number) => string; chars: number }): Block[] {
  const prefix = o.title ? `*${o.title}*\n` : "";
  const chunks = splitForSlack(escaped, MAX_SECTION_TEXT - prefix.length).filter((c) => c.trim() !== "");
  const kept = chunks.slice(0, o.sections);
  const cut = chunks.length > kept.length;
  if (cut && kept.length) kept[kept.length - 1] = clip(kept[kept.length - 1] as string, MAX_SECTION_TEXT - prefix.length - 2).replace(/…?$/, "…");
  const blocks = kept.map((c, i) => section(`${i === 0 ? prefix : ""}${c}`, { blockId: `${o.idPrefix}.${i}` }));
  if (cut) blocks.push(context([(o.note ?? ((n) => t(locale, "run_view.clipped", { chars: n })))(o.chars)]));
  return blocks;
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
    selfRepair: run.self_repair ? { status: run.self_repair.status, feedback: run.self_repair.feedback } : null,
  };
}

/** Resume and Revise, for the run's owner (or an admin); their value is the run id. */
function blockedButtons(locale: Locale, runId: string): Block {
  return actions(
    [
      button({ actionId: ACTIONS.runResume, text: t(locale, "run_view.resume"), value: runId, style: "primary" }),
      button({ actionId: ACTIONS.runRevise, text: t(locale, "run_view.revise"), value: runId }),
    ],
    BLOCKS.runActions,
  );
}

/**
 * A blocked run, in its thread: where and why it stopped (the reason clipped; the verdict above
 * and `/codex run` have it in full), the self-repair's state, and Resume / Revise buttons while
 * the run is still BLOCKED; once it moved on, the same message says so, without buttons.
 */
export function runBlockedMessage(locale: Locale, b: BlockedInput): SlackMessage {
  const where = b.step ? subjectText(locale, { kind: "step", ...b.step }) : b.stage ? runStageLabel(locale, b.stage) : runStatusLabel(locale, "BLOCKED");
  const lines = [t(locale, "run_view.blocked_title", { where })];
  if (b.code) lines.push(t(locale, `run_view.block_code.${b.code}`));
  const error = b.error.trim();
  if (error) lines.push(`> ${escapeClip(error, 1500).split("\n").slice(0, 25).join("\n> ")}`);
  const blocks: Block[] = [section(lines.join("\n"), { blockId: BLOCKS.runBlocked })];
  if (error.length > 1500 || error.split("\n").length > 25) blocks.push(context([t(locale, "run_view.full_text", { chars: error.length })]));
  if (b.selfRepair) {
    const feedback = b.selfRepair.feedback?.trim() ? `\n> ${oneLine(b.selfRepair.feedback, 1000)}` : "";
    blocks.push(section(`🔧 *${t(locale, "run_view.repair_title")}* : ${t(locale, `run_view.repair.${b.selfRepair.status}`)}${feedback}`, { blockId: BLOCKS.runRepair }));
  }
  if (b.runStatus === "BLOCKED") {
    blocks.push(context([t(locale, "run_view.blocked_help")]));
    blocks.push(blockedButtons(locale, b.runId));
  } else {
    blocks.push(context([`${RUN_EMOJI[b.runStatus]} ${t(locale, "run_view.blocked_resolved", { status: runStatusLabel(locale, b.runStatus) })}`]));
  }
  const text = `⛔ ${t(locale, "run_view.title")} · ${runStatusLabel(locale, "BLOCKED")}${error ? ` : ${oneLine(error, 200)}` : ""}`;
  return { text, blocks };
}

/**
 * Long mrkdwn after `head`, split into messages of at most three full sections (well under 12k
 * characters and 50 blocks each), at most `maxMessages`; beyond, the last section ends with "…"
 * and a context line says so (`note`). Code blocks stay balanced in every section.
 */
function splitMessages(locale: Locale, head: Block[], mrkdwn: string, o: { idPrefix: string; fallback: string; maxMessages: number; note: (chars: number) => string; chars: number }): SlackMessage[] {
  const chunks = splitForSlack(mrkdwn, MAX_SECTION_TEXT).filter((c) => c.trim() !== "");
  const max = o.maxMessages * SECTIONS_PER_MESSAGE;
  const cut = chunks.length > max;
  const kept = chunks.slice(0, max);
  if (cut) kept[kept.length - 1] = clip(kept[kept.length - 1] as string, MAX_SECTION_TEXT - 2).replace(/…?$/, "…");
  const groups: string[][] = [];
  for (let i = 0; i < kept.length; i += SECTIONS_PER_MESSAGE) groups.push(kept.slice(i, i + SECTIONS_PER_MESSAGE));
  if (groups.length === 0) groups.push([]);
  return groups.map((group, index) => {
    const blocks: Block[] = index === 0 ? [...head] : [];
    group.forEach((chunk, i) => blocks.push(section(chunk, { blockId: `${o.idPrefix}.${index}.${i}` })));
    if (index > 0) blocks.push(context([t(locale, "run_view.part", { index: index + 1, total: groups.length })]));
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
  const fallback = `${headText.replace(/\*/g, "")}${feedback ? ` : ${oneLine(feedback, 200)}` : ""}`;
  const body = feedback ? markdownToMrkdwn(feedback).trim() : `_${t(locale, "run_view.verdict.no_feedback")}_`;
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

/**
 * `/codex run`: the run with every step (state, risk, attempts, latest feedback), why it is
 * blocked and its self-repair, the final report once completed, Resume / Revise while blocked;
 * before any run, how to start one. Stays within one message: long parts are clipped with a note.
 */
export function runDetailView(locale: Locale, view: RunStatusView): SlackMessage {
  if (!("id" in view)) {
    const none = t(locale, "run_view.none");
    return { text: none, blocks: [section(none, { blockId: BLOCKS.runState })] };
  }
  const run = view;
  const head: Block[] = [header(`${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`), section(stateText(locale, run), { blockId: BLOCKS.runState })];
  const tail: Block[] = [];
  if (run.status === "BLOCKED") {
    const b = blockedInputOf(run);
    if (b.code) tail.push(context([t(locale, `run_view.block_code.${b.code}`)]));
    if (b.error.trim()) tail.push(...textSections(locale, escapeMrkdwn(b.error.trim()), { sections: 2, idPrefix: BLOCKS.runError, title: t(locale, "run_view.error_title"), chars: b.error.length }));
  }
  if (run.self_repair && (run.status === "BLOCKED" || run.self_repair.status === "RUNNING")) {
    const r = run.self_repair;
    const feedback = r.feedback?.trim() ? `\n> ${oneLine(r.feedback, 1000)}` : "";
    tail.push(section(`🔧 *${t(locale, "run_view.repair_title")}* : ${t(locale, `run_view.repair.${r.status}`)}${feedback}`, { blockId: BLOCKS.runRepair }));
  }
  if (run.status === "COMPLETED" && run.final_report?.trim()) {
    const report = markdownToMrkdwn(run.final_report).trim();
    tail.push(
      ...textSections(locale, report, {
        sections: 1,
        idPrefix: BLOCKS.runReport,
        title: t(locale, "run_view.report_title"),
        chars: run.final_report.length,
        note: (chars) => t(locale, "run_view.report_in_thread", { chars }),
      }),
    );
  }
  if (run.status === "BLOCKED") tail.push(blockedButtons(locale, run.id));
  tail.push(context([t(locale, "run_view.run_id", { id: code(run.id, 100), user: userMention(run.owner_id) })]));
  const title = section(`*${t(locale, "run_view.steps_title")}*`);
  const budget = MAX_MESSAGE_CHARS - 1000 - size(head) - size(tail) - size([title]);
  const steps = fitLines(
    run.steps.map((s) => detailedStep(locale, s)),
    { chars: budget, blocks: MAX_MESSAGE_BLOCKS - head.length - tail.length - 1, idPrefix: BLOCKS.runSteps, more: more(locale) },
  );
  return { text: `${RUN_EMOJI[run.status]} ${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`, blocks: [...head, title, ...steps, ...tail] };
}

/** The plan the way the owner writes it (the seed's field names), from a run's steps. */
export function planOf(steps: readonly RunStepView[]): Array<Record<string, unknown>> {
  return steps.map((s) => ({
    id: s.id,
    order: s.order,
    phase: s.phase,
    phaseLabel: s.phase_label,
    target: s.target,
    aliases: s.aliases,
    title: s.title,
    summary: s.summary,
    risk: s.risk,
    prompt: s.prompt,
  }));
}

/** The plan as JSON for the revise modal: indented when it fits the input, else compact, else null. */
export function planJson(steps: readonly RunStepView[], max: number = MAX_PLAN_INPUT): string | null {
  const plan = planOf(steps);
  const pretty = JSON.stringify(plan, null, 2);
  if (pretty.length <= max) return pretty;
  const compact = JSON.stringify(plan);
  return compact.length <= max ? compact : null;
}

/** Metadata of the plan modals: the channel they came from (a submission carries none), and the run revised. */
export interface RunModalMetadata {
  channelId?: string;
  runId?: string;
}

const metadata = (m: RunModalMetadata): string => JSON.stringify({ ...(m.channelId ? { channelId: m.channelId } : {}), ...(m.runId ? { runId: m.runId } : {}) });

/** `/codex run start`: a multiline input for the plan JSON. */
export function runStartModal(locale: Locale, opts: { channelId?: string } = {}): ModalView {
  return modal({
    callbackId: CALLBACKS.runStart,
    metadata: metadata({ channelId: opts.channelId }),
    title: t(locale, "run_modal.start_title"),
    submit: t(locale, "run_modal.start_submit"),
    close: t(locale, "run_modal.close"),
    blocks: [
      context([t(locale, "run_modal.start_intro")]),
      textInput({
        ...RUN_PLAN_INPUT,
        label: t(locale, "run_modal.plan_label"),
        multiline: true,
        maxLength: MAX_PLAN_INPUT,
        placeholder: t(locale, "run_modal.plan_placeholder"),
        hint: t(locale, "run_modal.plan_hint", { max: MAX_PLAN_INPUT }),
      }),
    ],
  });
}

/**
 * `/codex run resume --revise` and the Revise button: the run's plan to edit, prefilled when its
 * JSON fits the input (else empty, with a hint and the steps that must not change).
 */
export function runReviseModal(locale: Locale, opts: { runId: string; channelId?: string; steps: readonly RunStepView[] }): ModalView {
  const json = planJson(opts.steps);
  const blocks: InteractiveBlock[] = [context([t(locale, "run_modal.revise_intro")])];
  if (json === null) {
    const lines = opts.steps.map((s) => `\`${code(s.id, 60)}\` · ${s.order} · ${oneLine(s.target, 60)} · \`${code(s.risk, 50)}\``);
    blocks.push(...fitLines(lines, { chars: 8000, blocks: 5, idPrefix: BLOCKS.runSteps, more: more(locale) }));
  }
  blocks.push(
    textInput({
      ...RUN_PLAN_INPUT,
      label: t(locale, "run_modal.plan_label"),
      multiline: true,
      maxLength: MAX_PLAN_INPUT,
      hint: json === null ? t(locale, "run_modal.plan_too_long", { max: MAX_PLAN_INPUT }) : t(locale, "run_modal.plan_hint", { max: MAX_PLAN_INPUT }),
      ...(json === null ? { placeholder: t(locale, "run_modal.plan_placeholder") } : { initialValue: json }),
    }),
  );
  return modal({
    callbackId: CALLBACKS.runRevise,
    metadata: metadata({ channelId: opts.channelId, runId: opts.runId }),
    title: t(locale, "run_modal.revise_title"),
    submit: t(locale, "run_modal.revise_submit"),
    close: t(locale, "run_modal.close"),
    blocks,
  });
}

/** The plan text typed in either modal. */
export const readRunPlan = (values: StateValues): string => inputValue(values, RUN_PLAN_INPUT.blockId, RUN_PLAN_INPUT.actionId);

/** The plan modals' metadata read back (`{}` when missing or malformed). */
export function readRunModalMetadata(privateMetadata: string): RunModalMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(privateMetadata);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const { channelId, runId } = parsed as { channelId?: unknown; runId?: unknown };
  return { ...(typeof channelId === "string" && channelId ? { channelId } : {}), ...(typeof runId === "string" && runId ? { runId } : {}) };
}

/** The plan text as JSON, or the sentence saying why it is not JSON. */
export function parsePlanText(locale: Locale, text: string): { ok: true; plan: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, plan: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: t(locale, "run_modal.plan_invalid_json", { detail: clip(err instanceof Error ? err.message : String(err), 300) }) };
  }
}

/** `response_action: "errors"` naming the plan field with `message`. */
export const runPlanErrors = (message: string): Record<string, string> => ({ [RUN_PLAN_INPUT.blockId]: clip(message, MAX_ERROR_TEXT) });
