import { type ApprovalAnswer, type ApprovalView, isAnswerable } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { actions, button, context, section, type Block } from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import { MAX_BLOCK_ID, MAX_SECTION_TEXT } from "./limits.js";
import { escapeClip, slackLink, userMention } from "./mrkdwn.js";
import type { InteractiveMessage } from "./interactive.js";

/** The longest diff shown inline in the card; a longer one is uploaded as a file beside it. */
const INLINE_DIFF_CHARS = 2_500;
/** Room for the command in its code block (a section holds 3000 characters). */
const COMMAND_CHARS = MAX_SECTION_TEXT - 400;

/** The action id of each answer's button: `approval.<answer>` (DESIGN's `<aggregate>.<verb>`). */
export const APPROVAL_ACTION_IDS = {
  approve: ACTIONS.approvalApprove,
  approve_session: ACTIONS.approvalApproveSession,
  deny: ACTIONS.approvalDeny,
  stop: ACTIONS.approvalStop,
} as const satisfies Record<ApprovalAnswer, string>;

const blockId = (prefix: string, id: string): string => `${prefix}.${id}`.slice(0, MAX_BLOCK_ID);

/** Text shown as code: escaped, clipped, and unable to close its fence early. */
const code = (text: string, max: number): string =>
  `\`\`\`${escapeClip(text, max).replace(/```/g, "`\u200b``")}\`\`\``;

/** A Slack date in the reader's own time zone, with a UTC fallback for clients that cannot show it. */
const slackDate = (ms: number): string =>
  `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC>`;

/** Whether the card shows the diff itself (else the renderer uploads it as a file). */
export const diffFitsInline = (a: Pick<ApprovalView, "diff">): boolean =>
  (a.diff ?? "").length <= INLINE_DIFF_CHARS;

/** What is asked, in one line (fallback texts, the DM). */
export function approvalSubject(locale: Locale, a: Pick<ApprovalView, "kind" | "command" | "files">): string {
  if (a.kind === "command")
    return `\`${escapeClip((a.command ?? "").replace(/\s+/g, " ").replace(/`/g, "'"), 150)}\``;
  return t(locale, "approval.what_files", { n: a.files.length });
}

/** The closing line: who answered and when, or why nobody could. */
function closedLine(locale: Locale, a: ApprovalView): string {
  const when = slackDate(a.answered_at ?? a.expires_at);
  const user = a.answered_by ? userMention(a.answered_by) : "?";
  switch (a.status) {
    case "approved":
      return t(locale, "approval.status.approved", { user, when });
    case "approved_session":
      return t(locale, "approval.status.approved_session", { user, when });
    case "denied":
      return t(locale, "approval.status.denied", { user, when });
    case "stopped":
      return t(locale, "approval.status.stopped", { user, when });
    case "expired":
      return t(locale, "approval.status.expired", { when });
    default:
      return t(locale, "approval.status.abandoned");
  }
}

/**
 * An approval request for its conversation's thread: what the agent wants to run (the command as
 * code, its working directory, its reason) or change (the files, the diff inline when short), and
 * while it waits four buttons — Approve, Approve for this session, Deny, Stop — whose value is the
 * approval's id. Once closed, the buttons are gone and the card says who answered and when.
 */
export function approvalMessage(locale: Locale, a: ApprovalView): InteractiveMessage {
  const open = isAnswerable(a.status);
  const subject = approvalSubject(locale, a);
  const text = t(locale, open ? "approval.fallback_open" : "approval.fallback_closed", { what: subject });
  const title = t(locale, a.kind === "command" ? "approval.title_command" : "approval.title_file_change");
  const head = [`*${title}*`];
  if (a.kind === "command") head.push(code(a.command ?? "", COMMAND_CHARS));
  else if (a.files.length) head.push(t(locale, "approval.files", { files: fileList(locale, a.files) }));
  const blocks: Block[] = [section(head.join("\n"), { blockId: blockId(BLOCKS.approvalText, a.id) })];
  if (a.kind === "file_change" && a.diff)
    blocks.push(
      section(
        diffFitsInline(a) ? code(a.diff, INLINE_DIFF_CHARS + 100) : t(locale, "approval.diff_attached"),
        {
          blockId: blockId(BLOCKS.approvalDiff, a.id),
        },
      ),
    );
  const facts = [t(locale, "approval.project", { project: escapeClip(a.project_name, 100) })];
  if (a.cwd) facts.push(t(locale, "approval.cwd", { cwd: `\`${escapeClip(a.cwd, 500)}\`` }));
  if (a.reason) facts.push(t(locale, "approval.reason", { reason: escapeClip(a.reason, 1000) }));
  if (open) facts.push(t(locale, "approval.expires", { when: slackDate(a.expires_at) }));
  blocks.push(context(facts));
  if (!open) {
    blocks.push(section(closedLine(locale, a), { blockId: blockId(BLOCKS.approvalState, a.id) }));
    return { text, blocks };
  }
  blocks.push(
    actions(
      [
        button({
          actionId: APPROVAL_ACTION_IDS.approve,
          text: t(locale, "approval.approve"),
          value: a.id,
          style: "primary",
        }),
        button({
          actionId: APPROVAL_ACTION_IDS.approve_session,
          text: t(locale, "approval.approve_session"),
          value: a.id,
        }),
        button({
          actionId: APPROVAL_ACTION_IDS.deny,
          text: t(locale, "approval.deny"),
          value: a.id,
          style: "danger",
        }),
        button({ actionId: APPROVAL_ACTION_IDS.stop, text: t(locale, "approval.stop"), value: a.id }),
      ],
      blockId(BLOCKS.approvalActions, a.id),
    ),
  );
  return { text, blocks };
}

function fileList(locale: Locale, files: string[]): string {
  const shown = files.slice(0, 10).map((f) => `\`${escapeClip(f, 200)}\``);
  if (files.length > 10) shown.push(t(locale, "common.more", { n: files.length - 10 }));
  return shown.join(", ");
}

/** A pending approval as `/codex decisions` and App Home list it, with its card's link once known. */
export interface PendingApprovalItem {
  approval: Pick<ApprovalView, "id" | "kind" | "command" | "files" | "project_name">;
  link: string | null;
}

/** One pending approval in a list: what is asked, in which project, and a link to its card (answered there). */
export function pendingApprovalBlock(locale: Locale, item: PendingApprovalItem): Block {
  const a = item.approval;
  const line = t(locale, "approval.pending_item", {
    what: approvalSubject(locale, a),
    project: escapeClip(a.project_name, 100),
  });
  const link = item.link ? ` · ${slackLink(item.link, t(locale, "approval.see_card"))}` : "";
  return section(`${line}${link}`, { blockId: blockId(BLOCKS.approvalPending, a.id) });
}
