import type { OrchestrationStatus, OrchestrationView } from "../engine/api/model.js";
import { t, type Locale, type MessageKey } from "../i18n/index.js";
import {
  actions,
  button,
  confirmDialog,
  context,
  divider,
  header,
  section,
  type Block,
  type ButtonElement,
  type SlackMessage,
} from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import { fitItems, type InteractiveBlock } from "./interactive.js";
import { splitForSlack } from "./limits.js";
import { userMention } from "./mrkdwn.js";
import { branchOf, codeBlock, escapedDraft, escapedTail, oneLine, shortRev } from "./orchestrationThread.js";

// Pure views of orchestrations, and the public entry of them all: here the thread's root message
// (state and the buttons its status allows) and the list; one message group per history step in
// orchestrationThread.ts; the creation and feedback modals in orchestrationModals.ts; the tests
// input split into argv lists in argv.ts.

export { parseTests, splitArgv } from "./argv.js";
export {
  feedbackModal,
  ORCH_FEEDBACK_INPUT,
  ORCH_INPUTS,
  orchestrationFormErrors,
  orchestrationModal,
  readFeedback,
  readFeedbackMetadata,
  readOrchestrationForm,
  readOrchestrationMetadata,
  type FeedbackKind,
} from "./orchestrationModals.js";
import { failureText } from "../i18n/failures.js";
export { draftMessages, stepMessages, verificationMessages } from "./orchestrationThread.js";

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
const statusLabel = (locale: Locale, status: OrchestrationStatus): string =>
  t(locale, `orch_view.status.${STATUS_KEY[status]}`);

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
export function orchestrationButtons(
  locale: Locale,
  o: Pick<OrchestrationView, "id" | "status" | "draft_hash" | "verified_revision">,
): ButtonElement[] {
  const b = (actionId: string, key: string, value: string, style?: "primary" | "danger") =>
    button({
      actionId,
      text: t(locale, `orch_view.button.${key}` as MessageKey),
      value,
      ...(style ? { style } : {}),
    });
  const corrections = b(ACTIONS.orchCorrections, "corrections", o.id);
  switch (o.status) {
    case "DRAFT_REVIEW":
      return [
        b(ACTIONS.orchDraftApprove, "approve_draft", `${o.id}|${o.draft_hash}`, "primary"),
        b(ACTIONS.orchDraftReject, "reject_draft", o.id),
      ];
    case "AWAITING_VERIFICATION":
    case "VERIFICATION_FAILED":
      return [b(ACTIONS.orchVerify, "verify", o.id, "primary"), corrections];
    case "USER_REVIEW":
      return o.verified_revision
        ? [b(ACTIONS.orchApprove, "approve", `${o.id}|${o.verified_revision}`, "primary"), corrections]
        : [corrections];
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
  const meta = t(locale, "orch_view.meta", {
    project: oneLine(o.project_name, 100),
    user: o.owner_id ? userMention(o.owner_id) : "?",
    version: o.draft_version,
  });
  return o.branch ? `${meta} · ${t(locale, "orch_view.meta_branch", { branch: branchOf(o.branch) })}` : meta;
}

function hintLine(locale: Locale, o: OrchestrationView): string {
  const revision = shortRev(
    o.status === "USER_REVIEW"
      ? o.verified_revision
      : o.status === "MERGED"
        ? o.merged_revision
        : o.approved_revision,
  );
  return t(locale, `orch_view.hint.${STATUS_KEY[o.status]}`, {
    branch: branchOf(o.status === "AGENT_RUNNING" ? o.branch : o.base_branch),
    revision,
  });
}

/**
 * The orchestration's thread root: name, status, project, who started it, what to do now, the
 * last error, the draft while it is reviewed (shortened, the full text being in the thread) and
 * the buttons the status allows (block `orch.actions`).
 */
export function orchestrationRoot(locale: Locale, o: OrchestrationView): SlackMessage {
  const blocks: Block[] = [
    section(headLine(locale, o), { blockId: BLOCKS.orchHead }),
    context([metaLine(locale, o)]),
    section(hintLine(locale, o), { blockId: BLOCKS.orchState }),
  ];
  const lastError = failureText(locale, o.last_error)?.trim();
  if (lastError && o.status !== "MERGED" && o.status !== "CANCELLED") {
    const tail = escapedTail(lastError, 1200);
    blocks.push(
      section(
        `${t(locale, "orch_view.last_error", { error: "" }).trim()}\n${codeBlock(tail.cut ? `…${tail.text}` : tail.text)}`,
        { blockId: BLOCKS.orchError },
      ),
    );
  }
  if (o.status === "DRAFT_REVIEW") {
    const draft = escapedDraft(o.draft);
    const [first = ""] = splitForSlack(draft, ROOT_DRAFT);
    const shortened = first.length < draft.length;
    if (first.trim())
      blocks.push(section(shortened ? `${first.trimEnd()}\n…` : first, { blockId: BLOCKS.orchDraft }));
    if (shortened)
      blocks.push(context([t(locale, "orch_view.draft_more", { chars: o.draft.trim().length })]));
  }
  const buttons = orchestrationButtons(locale, o);
  if (buttons.length) blocks.push(actions(buttons, BLOCKS.orchActions));
  const text = `${STATUS_EMOJI[o.status]} ${t(locale, "orch_view.fallback", { name: oneLine(o.name, 150), project: oneLine(o.project_name, 100), status: statusLabel(locale, o.status) })}`;
  return { text, blocks };
}

// ---------------------------------------------------------------------------------------------
// The list

/** `/codex orchestrations`: each orchestration with its status and the buttons it allows. */
export function orchestrationsView(locale: Locale, list: OrchestrationView[]): SlackMessage {
  const title = t(locale, "orch_view.list.title", { n: list.length });
  if (list.length === 0)
    return {
      text: t(locale, "orch_view.list.empty"),
      blocks: [header(title), section(t(locale, "orch_view.list.empty"))],
    };
  const items = list.map((o, i): InteractiveBlock[] => {
    const blocks: InteractiveBlock[] = i === 0 ? [] : [divider()];
    blocks.push(
      section(`${headLine(locale, o)}\n${metaLine(locale, o)}\n${hintLine(locale, o)}`, {
        blockId: `${BLOCKS.orchList}.${i}`,
      }),
    );
    const buttons = orchestrationButtons(locale, o);
    if (buttons.length) blocks.push(actions(buttons, `${BLOCKS.orchListActions}.${i}`));
    return blocks;
  });
  return {
    text: title,
    blocks: fitItems([header(title)], items, (n) => t(locale, "common.more", { n })) as Block[],
  };
}
