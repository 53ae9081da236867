import type { approvals as fr } from "../fr/approvals.js";
import { count, type Message } from "../message.js";

/** English messages of approvals: an agent asking to act outside its sandbox. */
export const approvals = {
  "reason.approval_not_found": "approval request not found",
  "reason.approval_answered": "this approval request was already answered",
  "reason.approval_expired": "this approval request expired: nothing was run",
  "reason.approval_abandoned":
    "the agent no longer waits for this answer: nothing was run; reply in the thread to continue the conversation",
  "approval.pending_item": "🔐 {what} · *{project}*",
  "approval.see_card": "see the request",
  "approval.title_command": "🔐 The agent asks to run a command outside its sandbox",
  "approval.title_file_change": "🔐 The agent asks to change files outside its sandbox",
  "approval.project": "Project *{project}*",
  "approval.cwd": "Working directory: {cwd}",
  "approval.reason": "Reason: {reason}",
  "approval.files": "Files: {files}",
  "approval.diff_attached": "The diff is long: it is attached as a file in this thread.",
  "approval.diff_file_title": "Diff the agent asks to apply",
  "approval.expires": "Without an answer, the request expires {when}.",
  "approval.approve": "Approve",
  "approval.approve_session": "Approve for this session",
  "approval.deny": "Deny",
  "approval.stop": "Stop",
  "approval.status.approved": "✅ Approved by {user} {when}",
  "approval.status.approved_session": "✅ Approved for this session by {user} {when}",
  "approval.status.denied": "🚫 Denied by {user} {when}: the agent is told",
  "approval.status.stopped": "⏹️ Stopped by {user} {when}: the agent stops, nothing was run",
  "approval.status.expired": "⌛ Expired {when} without an answer: nothing was run",
  "approval.status.abandoned":
    "⚠️ The agent stopped waiting (its turn ended): nothing was run. Reply in the thread to continue the conversation.",
  "approval.fallback_open": "🔐 Approval requested: {what}",
  "approval.fallback_closed": "Approval closed: {what}",
  "approval.what_files": (p) => `a change to {n} file${count(p) === 1 ? "" : "s"}`,
  "approval.answered_ack": "✅ Answer sent to the agent.",
  "notice.approval_waiting": "🔐 An approval awaits you in *{project}*: {what} {link}",
} satisfies Record<keyof typeof fr, Message>;
