import type { OrchestrationStatus, OrchestrationView, TestResult, VerificationRecord } from "../engine/orchestrations/index.js";
import type { OrchestrationEvent } from "../engine/orchestrations/store.js";
import { isMessageKey, t, type Locale, type MessageKey } from "../i18n/index.js";
import { actions, button, confirmDialog, context, divider, header, section, type Block, type ButtonElement, type SlackMessage } from "./blocks.js";
import { formatDuration } from "./format.js";
import { ACTIONS, BLOCKS, CALLBACKS } from "./ids.js";
import { fitItems, inputValue, modal, textInput, type InteractiveBlock, type ModalView, type StateValues } from "./interactive.js";
import { clip, MAX_MESSAGE_BLOCKS, splitForSlack } from "./limits.js";
import { escapeClip, escapeMrkdwn, markdownToMrkdwn, userMention } from "./mrkdwn.js";

// Pure views of orchestrations: the creation and feedback modals, the thread's root message
// (state and the buttons its status allows), one message group per history step, and the list.

/** The inputs of the creation modal (`view.state.values[blockId][actionId].value`). */
export const ORCH_INPUTS = {
  name: { blockId: BLOCKS.orchName, actionId: `${BLOCKS.orchName}.value` },
  request: { blockId: BLOCKS.orchRequest, actionId: `${BLOCKS.orchRequest}.value` },
  criteria: { blockId: BLOCKS.orchCriteria, actionId: `${BLOCKS.orchCriteria}.value` },
  tests: { blockId: BLOCKS.orchTests, actionId: `${BLOCKS.orchTests}.value` },
} as const;

/** The input of the reject and corrections modals. */
export const ORCH_FEEDBACK_INPUT = { blockId: BLOCKS.orchFeedback, actionId: `${BLOCKS.orchFeedback}.value` } as const;

/** A field of the creation form. */
export type OrchestrationField = keyof typeof ORCH_INPUTS;

/** Slack's limit on a plain-text input's length. */
const MAX_INPUT = 3000;
/** Characters of blocks one message may use (Slack: keep well under ~12k). */
const MESSAGE_BUDGET = 9_000;
/** Characters of one section carrying split text (Slack: 3000). */
const CHUNK = 2_900;
/** Characters of the draft shown in the root message before pointing at the thread. */
const ROOT_DRAFT = 2_400;

const STATUS_KEY = {
  DRAFT_REVIEW: "draft_review",
  PREPARING: "preparing",
  AGENT_RUNNING: "agent_running",
  AGENT_FAILED: "agent_failed",
  AWAITING_VERIFICATION: "awaiting_verification",
  VERIFYING: "verifying",
  VERIFICATION_FAILED: "verification_failed",
  USER_REVIEW: "user_review",
  AWAITING_MERGE_CONFIRMATION: "awaiting_merge_confirmation",
  MERGING: "merging",
  MERGED: "merged",
  CANCELLING: "cancelling",
  CANCELLED: "cancelled",
} as const satisfies Record<OrchestrationStatus, string>;

const STATUS_EMOJI = {
  DRAFT_REVIEW: "📝",
  PREPARING: "⏳",
  AGENT_RUNNING: "⚙️",
  AGENT_FAILED: "❌",
  AWAITING_VERIFICATION: "🧪",
  VERIFYING: "🔬",
  VERIFICATION_FAILED: "⚠️",
  USER_REVIEW: "👀",
  AWAITING_MERGE_CONFIRMATION: "🔀",
  MERGING: "🔄",
  MERGED: "✅",
  CANCELLING: "🛑",
  CANCELLED: "🚫",
} as const satisfies Record<OrchestrationStatus, string>;

/** The status as people read it. */
export const statusLabel = (locale: Locale, status: OrchestrationStatus): string => t(locale, `orch_view.status.${STATUS_KEY[status]}`);

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);
const code = (text: string): string => `\`${text.replace(/`/g, "ˋ")}\``;
const shortRev = (revision: string | null | undefined): string => code(escapeMrkdwn((revision ?? "?").slice(0, 10)));
const branchOf = (branch: string | null | undefined): string => code(oneLine(branch ?? "?", 200));

/** Text in a code block: escaped, and a ``` inside broken up so that it cannot end the block early. */
function codeBlock(escaped: string): string {
  return `\`\`\`\n${escaped.replace(/`{3,}/g, (run) => run.split("").join("\u200b"))}\n\`\`\``;
}

/** The end of `text`, escaped, at most `max` characters (the end is where failures show). */
function escapedTail(text: string, max: number): { text: string; cut: boolean } {
  let n = Math.min(text.length, max);
  for (;;) {
    let tail = text.slice(text.length - n);
    if (/^[\udc00-\udfff]/.test(tail)) tail = tail.slice(1);
    const escaped = escapeMrkdwn(tail);
    if (escaped.length <= max || n <= 1) return { text: escaped, cut: n < text.length };
    n -= Math.max(1, escaped.length - max);
  }
}

// ---------------------------------------------------------------------------------------------
// Tests as argv lists

/** One line of the tests input split into an argv, or why it cannot be. */
export type ArgvResult = { ok: true; argv: string[] } | { ok: false; error: "unclosed_quote" };

/**
 * Splits a command line into its arguments the way a POSIX shell reads words, and nothing more:
 * whitespace separates; '…' keeps everything literally; "…" keeps everything but `\"` and `\\`;
 * a backslash outside quotes takes the next character literally; typographic “…” (as Slack
 * clients autocorrect) count as double quotes. No variables, globs, pipes or redirections: the
 * result is run without a shell.
 */
export function splitArgv(line: string): ArgvResult {
  const argv: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | "”" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && (line[i + 1] === '"' || line[i + 1] === "\\")) current += line[++i];
      else current += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) argv.push(current);
      current = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === "“") quote = "”";
    else if (c === "\\" && i + 1 < line.length) current += line[++i];
    else current += c;
  }
  if (quote) return { ok: false, error: "unclosed_quote" };
  if (inWord) argv.push(current);
  return { ok: true, argv };
}

/** The tests input: one command per non-blank line; the first line that cannot be split, if any. */
export function parseTests(text: string): { ok: true; tests: string[][] } | { ok: false; line: number } {
  const tests: string[][] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const r = splitArgv(line);
    if (!r.ok) return { ok: false, line: i + 1 };
    if (r.argv.length) tests.push(r.argv);
  }
  return { ok: true, tests };
}

// ---------------------------------------------------------------------------------------------
// Modals

/**
 * `/codex orchestrate <project>`: name, request, acceptance criteria (one per line) and tests (one
 * command per line). The project and the channel travel in private_metadata as JSON
 * `{ projectId, channelId }`: a view submission carries no channel.
 */
export function orchestrationModal(locale: Locale, opts: { projectId: string; projectName: string; channelId?: string }): ModalView {
  const k = (key: string) => t(locale, `orch_modal.${key}` as MessageKey);
  return modal({
    callbackId: CALLBACKS.orchCreate,
    metadata: JSON.stringify({ projectId: opts.projectId, ...(opts.channelId ? { channelId: opts.channelId } : {}) }),
    title: k("title"),
    submit: k("submit"),
    close: k("close"),
    blocks: [
      context([t(locale, "orch_modal.intro", { project: oneLine(opts.projectName, 100) })]),
      textInput({ ...ORCH_INPUTS.name, label: k("name.label"), maxLength: 120, placeholder: k("name.placeholder") }),
      textInput({ ...ORCH_INPUTS.request, label: k("request.label"), multiline: true, maxLength: MAX_INPUT, placeholder: k("request.placeholder") }),
      textInput({ ...ORCH_INPUTS.criteria, label: k("criteria.label"), multiline: true, maxLength: MAX_INPUT, hint: k("criteria.hint"), optional: true }),
      textInput({ ...ORCH_INPUTS.tests, label: k("tests.label"), multiline: true, maxLength: MAX_INPUT, hint: k("tests.hint"), optional: true }),
    ],
  });
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The creation modal's metadata read back (fields absent when missing or malformed). */
export function readOrchestrationMetadata(privateMetadata: string): { projectId?: string; channelId?: string } {
  const m = parseJson(privateMetadata);
  const projectId = str(m.projectId);
  const channelId = str(m.channelId);
  return { ...(projectId ? { projectId } : {}), ...(channelId ? { channelId } : {}) };
}

/** What the creation form gives the engine. */
export interface OrchestrationForm {
  name: string;
  request: string;
  acceptance_criteria: string[];
  tests: string[][];
}

/** The creation form's values, and the errors found before the engine sees them (tests that cannot be split). */
export function readOrchestrationForm(locale: Locale, values: StateValues): { form: OrchestrationForm; errors: Record<string, string> } {
  const read = (f: OrchestrationField) => inputValue(values, ORCH_INPUTS[f].blockId, ORCH_INPUTS[f].actionId);
  const tests = parseTests(read("tests"));
  const form: OrchestrationForm = {
    name: read("name").trim(),
    request: read("request").trim(),
    acceptance_criteria: read("criteria")
      .split(/\r?\n/)
      .map((c) => c.replace(/^\s*(?:[-*•]\s+)?/, "").trim())
      .filter(Boolean),
    tests: tests.ok ? tests.tests : [],
  };
  const errors: Record<string, string> = tests.ok ? {} : { [ORCH_INPUTS.tests.blockId]: t(locale, "orch_modal.tests.unclosed", { line: tests.line }) };
  return { form, errors };
}

const FIELD_OF: Record<string, OrchestrationField> = { name: "name", request: "request", acceptance_criteria: "criteria", tests: "tests" };

/**
 * The `response_action: "errors"` map for the fields the engine refused (its `orch_invalid`
 * fields, e.g. "acceptance_criteria, tests"); `message` (already Slack text) goes under the name
 * when no field is named (a project that vanished, a path that is not a repository).
 */
export function orchestrationFormErrors(locale: Locale, fields: string[], message?: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const raw of fields) {
    const field = FIELD_OF[raw.trim()];
    if (field) errors[ORCH_INPUTS[field].blockId] = t(locale, `orch_modal.${field}.error` as MessageKey);
  }
  if (Object.keys(errors).length === 0) errors[ORCH_INPUTS.name.blockId] = clip(message ?? t(locale, "orch_modal.name.error"), 2000);
  return errors;
}

/** Which feedback a modal asks for: a draft's rejection or corrections of the agent's work. */
export type FeedbackKind = "reject" | "corrections";

/** The feedback modal of a reject or corrections button; private_metadata `{ id, channelId }`. */
export function feedbackModal(locale: Locale, kind: FeedbackKind, o: Pick<OrchestrationView, "id" | "name" | "draft_version">, opts: { channelId?: string } = {}): ModalView {
  const name = oneLine(o.name, 200);
  const intro = kind === "reject" ? t(locale, "orch_modal.reject.intro", { version: o.draft_version, name }) : t(locale, "orch_modal.corrections.intro", { name });
  return modal({
    callbackId: kind === "reject" ? CALLBACKS.orchReject : CALLBACKS.orchCorrections,
    metadata: JSON.stringify({ id: o.id, ...(opts.channelId ? { channelId: opts.channelId } : {}) }),
    title: t(locale, `orch_modal.${kind}.title`),
    submit: t(locale, `orch_modal.${kind}.submit`),
    close: t(locale, "orch_modal.close"),
    blocks: [
      section(intro),
      textInput({ ...ORCH_FEEDBACK_INPUT, label: t(locale, `orch_modal.${kind}.label`), multiline: true, maxLength: MAX_INPUT, placeholder: t(locale, "orch_modal.feedback.placeholder") }),
    ],
  });
}

/** A feedback modal's metadata read back. */
export function readFeedbackMetadata(privateMetadata: string): { id?: string; channelId?: string } {
  const m = parseJson(privateMetadata);
  const id = str(m.id);
  const channelId = str(m.channelId);
  return { ...(id ? { id } : {}), ...(channelId ? { channelId } : {}) };
}

/** The feedback typed in a feedback modal, trimmed. */
export const readFeedback = (values: StateValues): string => inputValue(values, ORCH_FEEDBACK_INPUT.blockId, ORCH_FEEDBACK_INPUT.actionId).trim();

// ---------------------------------------------------------------------------------------------
// Buttons

/** A button value `<id>|<token>` (the draft hash or the revision it approves), split back. */
export function parseOrchestrationValue(value: string): { id: string; token: string } {
  const bar = value.indexOf("|");
  return bar === -1 ? { id: value, token: "" } : { id: value.slice(0, bar), token: value.slice(bar + 1) };
}

/**
 * The buttons an orchestration's status allows: approve (the exact draft, by hash) and reject while
 * the draft is reviewed; verify and corrections once the agent is done or a verification failed;
 * approve (the exact verified revision) and corrections in review; confirm or cancel the merge;
 * corrections after a failed agent. None while a step runs, nor once it is over.
 */
export function orchestrationButtons(locale: Locale, o: Pick<OrchestrationView, "id" | "status" | "draft_hash" | "verified_revision">): ButtonElement[] {
  const b = (actionId: string, key: string, value: string, style?: "primary" | "danger") =>
    button({ actionId, text: t(locale, `orch_view.button.${key}` as MessageKey), value, ...(style ? { style } : {}) });
  const corrections = b(ACTIONS.orchCorrections, "corrections", o.id);
  switch (o.status) {
    case "DRAFT_REVIEW":
      return [b(ACTIONS.orchDraftApprove, "approve_draft", `${o.id}|${o.draft_hash}`, "primary"), b(ACTIONS.orchDraftReject, "reject_draft", o.id)];
    case "AWAITING_VERIFICATION":
    case "VERIFICATION_FAILED":
      return [b(ACTIONS.orchVerify, "verify", o.id, "primary"), corrections];
    case "USER_REVIEW":
      return o.verified_revision ? [b(ACTIONS.orchApprove, "approve", `${o.id}|${o.verified_revision}`, "primary"), corrections] : [corrections];
    case "AWAITING_MERGE_CONFIRMATION": {
      const confirm = button({
        actionId: ACTIONS.orchMergeConfirm,
        text: t(locale, "orch_view.button.merge_confirm"),
        value: o.id,
        style: "primary",
        confirm: confirmDialog({
          title: t(locale, "orch_view.merge_confirm.title"),
          text: t(locale, "orch_view.merge_confirm.text"),
          confirm: t(locale, "orch_view.merge_confirm.confirm"),
          deny: t(locale, "orch_view.merge_confirm.deny"),
        }),
      });
      return [confirm, b(ACTIONS.orchMergeCancel, "merge_cancel", o.id)];
    }
    case "AGENT_FAILED":
      return [corrections];
    case "PREPARING":
    case "AGENT_RUNNING":
    case "VERIFYING":
    case "MERGING":
    case "MERGED":
    case "CANCELLING":
    case "CANCELLED":
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// The root message

function headLine(locale: Locale, o: Pick<OrchestrationView, "name" | "status">): string {
  return `${STATUS_EMOJI[o.status]} *${oneLine(o.name, 200)}* · ${statusLabel(locale, o.status)}`;
}

function metaLine(locale: Locale, o: OrchestrationView): string {
  const meta = t(locale, "orch_view.meta", { project: oneLine(o.project_name, 100), user: o.owner_id ? userMention(o.owner_id) : "?", version: o.draft_version });
  return o.branch ? `${meta} · ${t(locale, "orch_view.meta_branch", { branch: branchOf(o.branch) })}` : meta;
}

function hintLine(locale: Locale, o: OrchestrationView): string {
  const revision = shortRev(o.status === "USER_REVIEW" ? o.verified_revision : o.status === "MERGED" ? o.merged_revision : o.approved_revision);
  return t(locale, `orch_view.hint.${STATUS_KEY[o.status]}`, { branch: branchOf(o.status === "AGENT_RUNNING" ? o.branch : o.base_branch), revision });
}

/** The escaped draft. Its markup (`*Demande*`, backticks) is codexpi's; what people wrote is escaped. */
const escapedDraft = (draft: string): string => escapeMrkdwn(draft.trim());

/**
 * The orchestration's thread root: name, status, project, who started it, what to do now, the
 * last error, the draft while it is reviewed (shortened, the full text being in the thread) and
 * the buttons the status allows (block `orch.actions`).
 */
export function orchestrationRoot(locale: Locale, o: OrchestrationView): SlackMessage {
  const blocks: Block[] = [section(headLine(locale, o), { blockId: BLOCKS.orchHead }), context([metaLine(locale, o)]), section(hintLine(locale, o), { blockId: BLOCKS.orchState })];
  if (o.last_error?.trim() && o.status !== "MERGED" && o.status !== "CANCELLED") {
    const tail = escapedTail(o.last_error.trim(), 1200);
    blocks.push(section(`${t(locale, "orch_view.last_error", { error: "" }).trim()}\n${codeBlock(tail.cut ? `…${tail.text}` : tail.text)}`, { blockId: BLOCKS.orchError }));
  }
  if (o.status === "DRAFT_REVIEW") {
    const draft = escapedDraft(o.draft);
    const [first = ""] = splitForSlack(draft, ROOT_DRAFT);
    const shortened = first.length < draft.length;
    if (first.trim()) blocks.push(section(shortened ? `${first.trimEnd()}\n…` : first, { blockId: BLOCKS.orchDraft }));
    if (shortened) blocks.push(context([t(locale, "orch_view.draft_more", { chars: o.draft.trim().length })]));
  }
  const buttons = orchestrationButtons(locale, o);
  if (buttons.length) blocks.push(actions(buttons, BLOCKS.orchActions));
  const text = `${STATUS_EMOJI[o.status]} ${t(locale, "orch_view.fallback", { name: oneLine(o.name, 150), project: oneLine(o.project_name, 100), status: statusLabel(locale, o.status) })}`;
  return { text, blocks };
}

// ---------------------------------------------------------------------------------------------
// Thread steps

/**
 * Messages made of a head line and chunks of text, each chunk a section: as many messages as
 * needed (within the block and character budgets), each numbered when there are several.
 */
function chunkMessages(head: string, chunks: string[], opts: { idPrefix: string; part?: (index: number, total: number) => string }): SlackMessage[] {
  const groups: string[][] = [];
  let current: string[] = [];
  let size = head.length;
  for (const chunk of chunks) {
    // Two blocks are kept: the head (first message) and the "part n of m" line.
    if (current.length > 0 && (size + chunk.length > MESSAGE_BUDGET || current.length >= MAX_MESSAGE_BLOCKS - 2)) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(chunk);
    size += chunk.length;
  }
  if (current.length || groups.length === 0) groups.push(current);
  return groups.map((group, index) => {
    const blocks: Block[] = [];
    if (index === 0) blocks.push(section(head, { blockId: `${opts.idPrefix}.head` }));
    group.forEach((chunk, i) => blocks.push(section(chunk, { blockId: `${opts.idPrefix}.${index}.${i}` })));
    if (groups.length > 1 && opts.part) blocks.push(context([opts.part(index + 1, groups.length)]));
    const fallback = index === 0 ? head : (group[0] ?? head);
    return { text: clip(fallback.replace(/\s+/g, " "), 300), blocks };
  });
}

/** The full draft of a version, split across sections and messages: never cut. */
export function draftMessages(locale: Locale, o: Pick<OrchestrationView, "draft" | "draft_version">, head = t(locale, "orch_view.step.draft", { version: o.draft_version })): SlackMessage[] {
  const chunks = splitForSlack(escapedDraft(o.draft), CHUNK).filter((c) => c.trim() !== "");
  return chunkMessages(head, chunks, { idPrefix: BLOCKS.orchDraft, part: (index, total) => t(locale, "orch_view.step.draft_part", { version: o.draft_version, index, total }) });
}

function resultSection(locale: Locale, r: TestResult, index: number): string {
  const passed = r.passed ? "✅" : "❌";
  const exit = r.timedOut ? t(locale, "orch_view.results.timeout") : String(r.exitCode ?? "?");
  const line = t(locale, "orch_view.results.test", { emoji: passed, index, code: exit, duration: formatDuration(locale, r.durationMs) });
  const command = `$ ${escapeClip(r.command, 400)}`;
  const output = r.output.trim();
  const tail = escapedTail(output, 2_900 - line.length - command.length - 200);
  const clipped = tail.cut || output.startsWith("…");
  const body = output ? `${command}\n${tail.cut ? "…" : ""}${tail.text}` : `${command}\n${t(locale, "orch_view.results.no_output")}`;
  return `${line}\n${codeBlock(body)}${clipped ? `\n_${t(locale, "orch_view.results.tail", { chars: tail.text.length })}_` : ""}`;
}

/**
 * A verification's results after `head`: the count of passed tests, then each test's command (its
 * argv as a shell would read it), exit code, duration and the end of its output, escaped; split
 * across messages when long.
 */
export function verificationMessages(locale: Locale, record: VerificationRecord, head: string): SlackMessage[] {
  const passed = record.results.filter((r) => r.passed).length;
  const title = record.results.length
    ? t(locale, "orch_view.results.title", { passed, total: record.results.length })
    : t(locale, "orch_view.results.none");
  const chunks = record.results.map((r, i) => resultSection(locale, r, i + 1));
  return chunkMessages(`${head}\n${title}`, chunks, { idPrefix: BLOCKS.orchResult, part: (index, total) => t(locale, "orch_view.results.part", { index, total }) });
}

const line = (text: string): SlackMessage[] => [{ text: clip(text.replace(/\s+/g, " "), 300), blocks: [section(text, { blockId: BLOCKS.orchStep })] }];

const detailString = (d: Record<string, unknown>, key: string): string => (typeof d[key] === "string" ? (d[key] as string) : "");

/** A refusal's sentence from the catalog (`reason.<reason>`), its parameters escaped. */
function reasonText(locale: Locale, reason: string, params: Record<string, string>): string {
  const key = `reason.${reason}`;
  const safe = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, escapeClip(v, 1500)]));
  return isMessageKey(key) ? t(locale, key, safe) : escapeClip(params.detail ?? reason, 1500);
}

const MERGE_REASONS: Record<string, string> = { main_dirty: "orch_main_dirty", main_moved: "orch_main_moved", conflict: "orch_merge_conflict" };

/**
 * What one history event shows in the thread (none for internal ones). A draft's full text is
 * shown only for the current version (`o` is the orchestration as it is now); a verification's
 * results when `o` still holds that verification's record.
 */
export function stepMessages(locale: Locale, o: OrchestrationView, event: OrchestrationEvent): SlackMessage[] {
  const d = event.detail;
  const draftOf = (version: number): SlackMessage[] =>
    version === o.draft_version ? draftMessages(locale, o) : line(t(locale, "orch_view.step.draft_old", { version }));
  switch (event.kind) {
    case "created":
      return draftOf(Number(d.draft_version ?? 1));
    case "draft.rejected": {
      const version = Number(d.version ?? 0);
      return [...line(t(locale, "orch_view.step.rejected", { version, feedback: escapeClip(detailString(d, "feedback").trim(), 2500) })), ...draftOf(version + 1)];
    }
    case "draft.approved":
      return line(t(locale, "orch_view.step.approved_draft", { version: Number(d.version ?? o.draft_version) }));
    case "prepare.failed":
      return line(t(locale, "orch_view.step.prepare_failed", { error: reasonText(locale, detailString(d, "reason"), { path: detailString(d, "detail"), detail: detailString(d, "detail") }) }));
    case "agent.started":
      return line(t(locale, "orch_view.step.agent_started", { branch: branchOf(detailString(d, "branch") || o.branch) }));
    case "agent.finished": {
      const answer = detailString(d, "answer").trim();
      const head = t(locale, "orch_view.step.agent_finished");
      if (!answer) return line(head);
      return chunkMessages(head, splitForSlack(markdownToMrkdwn(answer).trim(), CHUNK), { idPrefix: BLOCKS.orchStep });
    }
    case "agent.failed":
      return line(t(locale, "orch_view.step.agent_failed", { error: escapeClip(detailString(d, "error") || detailString(d, "status") || "?", 1500) }));
    case "corrections.requested":
      return line(t(locale, "orch_view.step.corrections", { feedback: escapeClip(detailString(d, "feedback").trim(), 2500) }));
    case "verification.passed":
    case "verification.failed": {
      const passed = event.kind === "verification.passed";
      const revision = typeof d.revision === "string" ? d.revision : null;
      if (!revision) return line(t(locale, "orch_view.step.verification_error", { error: escapeClip(detailString(d, "output") || "?", 1500) }));
      const head = t(locale, passed ? "orch_view.step.verified" : "orch_view.step.verification_failed", { revision: shortRev(revision) });
      const record = o.verification;
      if (record && record.revision === revision && record.passed === passed) return verificationMessages(locale, record, head);
      const output = detailString(d, "output").trim();
      return output ? chunkMessages(head, [codeBlock(escapedTail(output, CHUNK - 10).text)], { idPrefix: BLOCKS.orchResult }) : line(head);
    }
    case "verification.interrupted":
      return line(t(locale, "orch_view.step.verification_interrupted"));
    case "revision.approved": {
      const approved = t(locale, "orch_view.step.revision_approved", { revision: shortRev(detailString(d, "revision")) });
      return line(o.merge_confirmation_required ? `${approved}\n${t(locale, "orch_view.step.merge_asked")}` : approved);
    }
    case "merge.confirmed":
      return line(t(locale, "orch_view.step.merge_confirmed"));
    case "merge.declined":
      return line(t(locale, "orch_view.step.merge_declined"));
    case "merged":
      return line(t(locale, "orch_view.step.merged", { branch: branchOf(o.base_branch), revision: shortRev(detailString(d, "revision")) }));
    case "merge.failed": {
      const reason = MERGE_REASONS[detailString(d, "reason")] ?? "orch_merge_conflict";
      return line(t(locale, "orch_view.step.merge_failed", { error: reasonText(locale, reason, { branch: o.base_branch ?? "?", detail: detailString(d, "detail") }) }));
    }
    case "cancel.requested":
      return line(t(locale, "orch_view.step.cancel_requested"));
    case "cancelled":
      return line(t(locale, "orch_view.step.cancelled"));
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// The list

/** `/codex orchestrations`: each orchestration with its status and the buttons it allows. */
export function orchestrationsView(locale: Locale, list: OrchestrationView[]): SlackMessage {
  const title = t(locale, "orch_view.list.title", { n: list.length });
  if (list.length === 0) return { text: t(locale, "orch_view.list.empty"), blocks: [header(title), section(t(locale, "orch_view.list.empty"))] };
  const items = list.map((o, i): InteractiveBlock[] => {
    const blocks: InteractiveBlock[] = i === 0 ? [] : [divider()];
    blocks.push(section(`${headLine(locale, o)}\n${metaLine(locale, o)}\n${hintLine(locale, o)}`, { blockId: `${BLOCKS.orchList}.${i}` }));
    const buttons = orchestrationButtons(locale, o);
    if (buttons.length) blocks.push(actions(buttons, `${BLOCKS.orchListActions}.${i}`));
    return blocks;
  });
  return { text: title, blocks: fitItems([header(title)], items, (n) => t(locale, "common.more", { n })) as Block[] };
}
