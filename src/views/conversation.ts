import { type Progress, canStop } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { actions, button, confirmDialog, context, section, type Block, type SlackMessage } from "./blocks.js";
import { formatDuration } from "./format.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import {
  MAX_MESSAGE_BLOCKS,
  MAX_MESSAGE_CHARS,
  MAX_SECTION_TEXT,
  splitForSlack,
  splitWithFences,
} from "./limits.js";
import { escapeClip, markdownToMrkdwn, slackLink, userMention } from "./mrkdwn.js";
import { redactText } from "../redaction.js";
import { failureCodeKey, failureText } from "../i18n/failures.js";
import { formatTokens, interimQuote, planChecklist, progressLine } from "./progress.js";

/** The state a conversation's root message shows (its current queue item's status). */
export type ConversationState = "queued" | "running" | "done" | "failed" | "cancelled";

/** What the thread's root message shows about a conversation. */
export interface ConversationRootInput {
  conversationId: string;
  projectName: string;
  prompt: string;
  userId: string | null;
  status: ConversationState;
  /** Plain activity text of rows written before progress was structured. */
  activity?: string | null;
  /** What the agent does now, and its plan. */
  progress?: Progress | null;
  /** Tokens the conversation used (all its turns), shown once a turn is over. */
  tokens?: number | null;
  /** How long the agent worked, all finished turns together (the summary once done). */
  workedMs?: number | null;
  /** When the message is rendered (elapsed time while running). */
  now?: number | null;
  position?: number | null;
  error?: string | null;
  errorCode?: string | null;
  startedAt?: number | null;
  finishedAt?: number | null;
  /** Stop was pressed and the running turn is being stopped: never shown as running again. */
  stopping?: boolean;
  /** Who pressed Stop, when known. */
  stoppedBy?: string | null;
  /** A decision the agent asked still waits: Stop is offered (it cancels the decision). */
  decisionOpen?: boolean;
  /** A link to the question of the decision that waits, once it is posted. */
  decisionLink?: string | null;
  /** The running turn waits for a person's approval (a command or file change it asked for). */
  approvalPending?: boolean;
  /** A link to that approval's card, once it is posted. */
  approvalLink?: string | null;
  /** The request's options (`model=`, `effort=`, `branch=`), shown under the prompt when chosen. */
  options?: { model: string | null; effort: string | null; branch: string | null } | null;
}

/** The options a request chose, as one line (`model gpt-5.5 · effort high · base feature`); null without any. */
function optionsLine(locale: Locale, options: ConversationRootInput["options"]): string | null {
  if (!options) return null;
  const parts = [
    options.model ? t(locale, "conversation.option.model", { value: escapeClip(options.model, 100) }) : null,
    options.effort
      ? t(locale, "conversation.option.effort", { value: escapeClip(options.effort, 20) })
      : null,
    options.branch
      ? t(locale, "conversation.option.branch", { value: escapeClip(options.branch, 200) })
      : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(" · ") : null;
}

const STATE_EMOJI = {
  queued: "⏳",
  running: "⚙️",
  done: "✅",
  failed: "❌",
  cancelled: "🛑",
} as const satisfies Record<ConversationState, string>;

const PROMPT_CHARS = 1200;
const PROMPT_LINES = 25;

/** The prompt as a Slack quote, clipped (its full text is in the database and the thread). */
function quotePrompt(prompt: string): string {
  const lines = escapeClip(prompt.trim(), PROMPT_CHARS).split("\n");
  const shown = lines.slice(0, PROMPT_LINES);
  if (lines.length > PROMPT_LINES) shown.push("…");
  return shown.map((l) => `> ${l}`.trimEnd()).join("\n");
}

/** A finished turn whose agent asked a question: the conversation waits, it is not done. */
const waitsForAnswer = (c: ConversationRootInput) => c.status === "done" && c.decisionOpen === true;

/** A running turn paused on an approval request: it goes on once someone answers. */
const waitsForApproval = (c: ConversationRootInput) => c.status === "running" && c.approvalPending === true;

function stateEmoji(c: ConversationRootInput): string {
  return waitsForAnswer(c) || waitsForApproval(c) ? "⏸" : STATE_EMOJI[c.status];
}

function stateLine(locale: Locale, c: ConversationRootInput): string {
  if (waitsForApproval(c)) {
    const waiting = t(locale, "conversation.state.waiting_approval");
    return c.approvalLink
      ? `${waiting} · ${slackLink(c.approvalLink, t(locale, "conversation.state.waiting_request"))}`
      : waiting;
  }
  if (waitsForAnswer(c)) {
    const waiting = t(locale, "conversation.state.waiting_decision");
    return c.decisionLink
      ? `${waiting} · ${slackLink(c.decisionLink, t(locale, "conversation.state.waiting_question"))}`
      : waiting;
  }
  switch (c.status) {
    case "queued":
      return c.position != null && c.position > 0
        ? t(locale, "conversation.state.queued_at", { n: c.position })
        : t(locale, "conversation.state.queued");
    case "running":
      return runningLine(locale, c);
    case "done": {
      if (c.startedAt == null || c.finishedAt == null) return t(locale, "conversation.state.done");
      // The conversation's total (every turn's work, the waits for an unreachable model left out),
      // not the last turn's: the tokens are a total too. Without a total, the last turn's.
      const duration = formatDuration(locale, c.workedMs ?? c.finishedAt - c.startedAt);
      return c.tokens != null && c.tokens > 0
        ? t(locale, "conversation.state.done_in_tokens", { duration, tokens: formatTokens(locale, c.tokens) })
        : t(locale, "conversation.state.done_in", { duration });
    }
    case "failed": {
      const failure = failureText(locale, c.error)?.trim();
      const head = failure
        ? t(locale, "conversation.state.failed_with", { error: escapeClip(failure, 1500) })
        : t(locale, "conversation.state.failed");
      // One cause: the code's sentence only where the text is not the engine's own note.
      const key = failureCodeKey(c.error, c.errorCode);
      return key ? `${head}\n_${t(locale, key)}_` : head;
    }
    case "cancelled":
      return c.stoppedBy
        ? `${t(locale, "conversation.state.cancelled")} · ${t(locale, "notice.stopped_by", { user: userMention(c.stoppedBy) })}`
        : t(locale, "conversation.state.cancelled");
  }
}

/** While running: the elapsed time, the current activity in the person's language, the plan. */
function runningLine(locale: Locale, c: ConversationRootInput): string {
  // Stop was pressed: what the agent did meanwhile (its killed command ending) is not work going on.
  if (c.stopping) return t(locale, "conversation.state.stopping");
  const elapsed =
    c.startedAt != null && c.now != null && c.now >= c.startedAt
      ? t(locale, "conversation.state.running_for", { duration: formatDuration(locale, c.now - c.startedAt) })
      : null;
  if (c.progress) {
    const lines = [
      `${elapsed ?? t(locale, "conversation.state.running")} · ${progressLine(locale, c.progress)}`,
    ];
    if (c.progress.text?.trim()) lines.push(interimQuote(c.progress.text));
    if (c.progress.plan?.length) lines.push(planChecklist(locale, c.progress.plan));
    return lines.join("\n");
  }
  if (c.activity?.trim())
    return t(locale, "conversation.state.running_activity", {
      activity: escapeClip(redactText(c.activity).slice(0, 1000).trim().replace(/\s+/g, " "), 300),
    });
  return elapsed ?? t(locale, "conversation.state.running");
}

/**
 * The thread's root message: who asked what in which project, the current state, and a Stop
 * button (with confirmation) while the prompt is queued or running, or a decision waits.
 */
export function conversationRoot(locale: Locale, c: ConversationRootInput): SlackMessage {
  const project = escapeClip(c.projectName, 100);
  const asked = t(locale, "conversation.asked", { user: c.userId ? userMention(c.userId) : "?", project });
  const state = `${stateEmoji(c)} ${stateLine(locale, c)}`;
  const request = [asked, c.prompt.trim() ? quotePrompt(c.prompt) : null, optionsLine(locale, c.options)];
  const blocks: Block[] = [
    section(request.filter((l): l is string => l !== null).join("\n"), {
      blockId: BLOCKS.conversationRequest,
    }),
    section(state, { blockId: BLOCKS.conversationState }),
  ];
  if (canStop(c.status, c.decisionOpen === true)) {
    const stop = button({
      actionId: ACTIONS.conversationStop,
      text: `⏹ ${t(locale, "conversation.stop")}`,
      value: c.conversationId,
      style: "danger",
      confirm: confirmDialog({
        title: t(locale, "conversation.stop_confirm.title"),
        text: t(locale, "conversation.stop_confirm.text"),
        confirm: t(locale, "conversation.stop_confirm.confirm"),
        deny: t(locale, "conversation.stop_confirm.deny"),
        style: "danger",
      }),
    });
    blocks.push(actions([stop], BLOCKS.conversationActions));
  }
  blocks.push(context([t(locale, "conversation.hint")], BLOCKS.conversationHint));
  const text = `${stateEmoji(c)} ${t(locale, "common.labelled", { label: project, value: escapeClip(redactText(c.prompt).slice(0, 400).trim().replace(/\s+/g, " "), 150) })}`;
  return { text, blocks };
}

/** A file to upload instead of (most of) a long answer. */
export interface AnswerFile {
  filename: string;
  content: string;
  title: string;
}

/** An agent's answer ready to post: messages in order, and maybe a file with the full text. */
export interface AgentAnswer {
  messages: SlackMessage[];
  file: AnswerFile | null;
}

/** Options of `agentAnswer`. */
export interface AgentAnswerOptions {
  /** Characters of blocks per message (default 10 000, under Slack's ~12k guidance). */
  maxMessageChars?: number;
  /** Beyond this many characters of Markdown the answer goes into a file (default 12 000). */
  fileThreshold?: number;
}

const DEFAULT_MESSAGE_CHARS = 10_000;
const DEFAULT_FILE_THRESHOLD = 12_000;
const SUMMARY_CHARS = 1_500;
const FALLBACK_CHARS = 300;

/** The start of some mrkdwn as a notification text, without a cut link or entity at the end. */
function fallbackText(mrkdwn: string): string {
  const flat = mrkdwn.replace(/```/g, "").replace(/\s+/g, " ").trim();
  if (flat.length <= FALLBACK_CHARS) return flat;
  let head = flat.slice(0, FALLBACK_CHARS - 1);
  const lt = head.lastIndexOf("<");
  if (lt > head.lastIndexOf(">")) head = head.slice(0, lt);
  return `${head
    .replace(/&[a-z]{0,3}$/, "")
    .replace(/[\uD800-\uDBFF]$/, "")
    .trimEnd()}…`;
}

/**
 * An agent's Markdown answer as Slack messages: converted to mrkdwn and split into sections of at
 * most 3000 characters, grouped into messages of at most 50 blocks and `maxMessageChars`; code
 * blocks stay balanced in every section. Beyond `fileThreshold` the answer is a short first
 * message (its first lines) plus the full Markdown as a file. Nothing is ever cut silently.
 */
export function agentAnswer(locale: Locale, answer: string, opts: AgentAnswerOptions = {}): AgentAnswer {
  // Redacted before splitting, so that a secret across two messages is caught, and in the file too.
  const markdown = redactText(answer);
  if (markdown.trim() === "") {
    const text = t(locale, "answer.empty");
    return {
      messages: [{ text, blocks: [section(`_${text}_`, { blockId: `${BLOCKS.answerPart}.0` })] }],
      file: null,
    };
  }
  const mrkdwn = markdownToMrkdwn(markdown).trim();
  const threshold = opts.fileThreshold ?? DEFAULT_FILE_THRESHOLD;
  if (markdown.length > threshold) {
    const first = splitWithFences(mrkdwn, SUMMARY_CHARS)[0];
    const cut = first !== undefined && first.body.length < mrkdwn.length;
    const summary = first
      ? `${first.reopen}${first.body.trimEnd()}${first.close ? `\n${first.close.trim()}` : ""}${cut ? "\n…" : ""}`
      : "";
    const note = t(locale, "answer.file_note", { chars: markdown.length });
    return {
      messages: [
        {
          text: fallbackText(summary),
          blocks: [
            section(summary, { blockId: `${BLOCKS.answerPart}.0` }),
            context([`📎 ${note}`], BLOCKS.answerNote),
          ],
        },
      ],
      file: {
        filename: t(locale, "answer.file_name"),
        content: markdown,
        title: t(locale, "answer.file_title"),
      },
    };
  }
  const perMessage = Math.max(
    500,
    Math.min(opts.maxMessageChars ?? DEFAULT_MESSAGE_CHARS, MAX_MESSAGE_CHARS),
  );
  const sectionMax = Math.min(MAX_SECTION_TEXT, perMessage);
  const chunks = splitForSlack(mrkdwn, sectionMax).filter((c) => c.trim() !== "");
  const groups: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const chunk of chunks) {
    // One block is kept for the "part n/m" context line.
    if (
      current.length > 0 &&
      (size + chunk.length > perMessage || current.length >= MAX_MESSAGE_BLOCKS - 1)
    ) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(chunk);
    size += chunk.length;
  }
  if (current.length > 0) groups.push(current);
  const messages = groups.map((group, index): SlackMessage => {
    const blocks = group.map((chunk, i) => section(chunk, { blockId: `${BLOCKS.answerPart}.${index}.${i}` }));
    if (groups.length > 1)
      blocks.push(context([t(locale, "answer.part", { index: index + 1, total: groups.length })]));
    return { text: fallbackText(group[0] ?? ""), blocks };
  });
  return { messages, file: null };
}

/** What a stop did, as its summary names it. */
export interface StopSummaryInput {
  userId: string;
  stoppingRunning: number;
  cancelledQueued: number;
  cancelledDecisions: number;
}

/**
 * The one message a stop gets: who stopped, the running turn, and what it cancelled besides
 * (queued follow-ups, open decisions), so that nothing goes away without a word.
 */
export function stopSummary(locale: Locale, r: StopSummaryInput): string {
  const what = [
    ...(r.stoppingRunning > 0 ? [t(locale, "notice.stop_running")] : []),
    ...(r.cancelledQueued > 0 ? [t(locale, "notice.stop_queued", { n: r.cancelledQueued })] : []),
    ...(r.cancelledDecisions > 0 ? [t(locale, "notice.stop_decisions", { n: r.cancelledDecisions })] : []),
  ];
  return t(locale, "notice.stop_summary", { user: userMention(r.userId), what: what.join(", ") });
}

/** Options of `followUpAck`. */
export interface FollowUpAckInput {
  /** The reply's place in the queue (1 = next); null when not known. */
  position?: number | null;
  /** The reply was sent into the running turn (steered) rather than queued. */
  steered?: boolean;
}

/** The short reply acknowledging a follow-up prompt written in the thread. */
export function followUpAck(locale: Locale, ack: FollowUpAckInput = {}): SlackMessage {
  const text = ack.steered
    ? t(locale, "conversation.followup_steered")
    : ack.position != null && ack.position > 0
      ? t(locale, "conversation.followup_queued", { n: ack.position })
      : t(locale, "conversation.followup_received");
  return { text, blocks: [context([`📨 ${text}`])] };
}
