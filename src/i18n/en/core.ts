import type { core as frCore } from "../fr/core.js";
import { count, type Message } from "../message.js";

const s = (n: number): string => (n === 1 ? "" : "s");

/** English messages of common words, errors, the worker, failures, conversations and answers (exactly the keys of `fr/core.ts`). */
export const core = {
  "common.yes": "yes",
  "common.no": "no",
  "common.more": "… and {n} more",
  "common.shared": "shared",
  "common.labelled": "{label}: {value}",
  "ask.choose_project": "Which project? Pick one and your request runs there:",
  "ask.no_projects": "You have no project you can use. An admin can add one with `/codex project add`.",
  "ask.prompt_too_long": "The request is too long to offer here: start it with the project’s name.",
  "ask.choice_not_yours": "Only the person who asked can choose the project of their request.",
  "ask.chosen": "Started in *{project}*.",

  "error.not_found": "Not found: {detail}",
  "error.conflict": "Not possible right now: {detail}",
  "error.invalid": "Invalid request: {detail}",
  "error.forbidden": "Not allowed: {detail}",
  "error.unavailable": "Service temporarily unavailable: {detail}. Try again in a moment.",
  "error.internal": "Something unexpected went wrong; it has been written to the bot’s logs.",

  "reason.project_name_invalid":
    "invalid project name: {name} (letters, digits, spaces, . _ ( ) -, at most 80 characters)",
  "reason.project_path_invalid": "the path {path} is not a directory on this machine",
  "reason.project_holds_data":
    "the path {path} contains codexpi’s data directory ({other}): its agents could rewrite the database; choose a directory outside it",
  "reason.project_holds_install":
    "the path {path} contains the running codexpi install ({other}): its agents could rewrite the code codexpi runs; register a separate checkout",
  "reason.project_overlaps":
    "the path {path} overlaps the project {name} ({other}): projects never overlap (one inside the other, or the same directory), or one’s agents could read and write the other’s files and git hooks; choose a separate directory",
  "reason.project_exists": "a project named {name} already exists",
  "reason.role_taken": "the {role} role is already held by the project {name}",
  "reason.project_clash": "the project {name} clashes with another project (name or role {role}); try again",
  "reason.project_not_found": (p) =>
    p.suggestion === undefined
      ? "project not found: {name}"
      : "project not found: {name} (did you mean {suggestion}?)",
  "reason.project_read_only":
    "you may follow project {name}, not prompt it: ask its owner (`/codex project allow {name} @you`)",
  "reason.admins_only": "admins only",
  "reason.project_busy": "the project {name} still has work queued or running",
  "reason.project_running": "the project {name} has an agent running: move it once it has finished",
  "reason.host_not_found":
    "no worker host named {name} has registered (start codexpi host --name {name} first)",
  "reason.workspace_mode_invalid": "the workspace mode must be branch or direct (not {mode})",
  "reason.workspace_not_a_repository":
    "the project {name} cannot work in branch mode: {path} is not the root of a git repository (each conversation’s lane would be a clone of it); it stays direct",
  "reason.lane_not_found":
    "this conversation has no lane (its project works in direct mode, or its agent has not started)",
  "reason.lane_busy":
    "the conversation {name} has an agent at work or waiting in its lane: wait for its answer or stop it, then try again",
  "lanes.commit_message": "codexpi: {title}",
  "reason.conversation_not_found": "conversation not found",
  "reason.conversation_other_project": "the conversation {name} belongs to another project",
  "reason.prompt_empty": "the prompt is empty",
  "reason.not_allowed_to_drive": "only the conversation’s author, the project’s owner and admins may do this",
  "reason.policy_invalid": "invalid runtime policy ({fields})",
  "reason.limit_invalid": "the limit must be an integer from 1 to 64",

  "worker.interrupted": "The worker stopped before the task was done (process interrupted).",
  "worker.interrupted_detail": "The worker stopped before the task was done (process interrupted): {detail}",
  "worker.watchdog_idle": "Codex emitted nothing for {s} s: the watchdog stopped the turn.",
  "worker.watchdog_turn": "The turn took more than {s} s: the watchdog stopped it.",
  "worker.watchdog_retrying":
    "The model kept failing for {s} s (Codex only retried): the watchdog stopped the turn. Last error: {detail}",
  "worker.cancelled": "Stopped on request.",
  "worker.cancelled_queued": "Cancelled before it started.",
  "worker.thread_busy": "This Codex conversation is already in use by another turn.",
  "worker.codex_missing": "Codex not found: install @openai/codex or set CODEX_BIN.",
  "worker.jail_missing":
    "The agent jail is unavailable: install bubblewrap (`apt install bubblewrap`) or see `codexpi doctor`.",
  "worker.model_credential":
    "The model's credential could not be read on the host, so the agent did not start: {detail}",
  "worker.spawn_failed": "The agent could not start: {detail}",

  "failure.interrupted": "The agent’s process stopped midway (restart or crash).",
  "failure.watchdog": "The agent went over its time limit and was stopped.",
  "failure.codex_failed": "Codex reported a failure during its turn.",
  "failure.cancelled": "The request was cancelled before it finished.",
  "failure.spawn_failed": "The agent could not be started on the host.",
  "failure.thread_busy": "The conversation already had a turn in progress; try again once it has finished.",

  "pause.concurrency": "the maximum number of concurrent agents is reached",
  "pause.load": "the host is too busy",
  "pause.memory": "memory is nearly full",

  "notice.not_in_channel": (p) =>
    `The bot is not in ${p.channel === undefined ? "this channel" : "the channel {channel}"} (not_in_channel): invite it with \`/invite @codexpi\`.`,
  "notice.delivery_failed":
    "Could not post your conversation’s updates in *{project}* to Slack (error `{code}`).",
  "notice.admin_only": "Only admins can use `{command}`.",
  "notice.project_not_found": "Project not found: {name}",
  "notice.reply_unmatched":
    "Your reply could not be matched to a codexpi conversation, so it was not sent to the agent: please send it again in the conversation’s thread.",
  "notice.working": "Working…",
  "notice.decision_waiting": "A decision awaits you in *{project}*: {title} {link}",
  "notice.task_done": "Your request in *{project}* is done. {link}",
  "notice.task_failed": "Your request in *{project}* failed. {link}",
  "notice.see_thread": "See the thread",
  "notice.stopped_by": "Stopped by {user}",
  "notice.stop_summary": "Stopped by {user}: {what}.",
  "notice.stop_running": "the running turn",
  "notice.stop_queued": (p) => `{n} queued follow-up${s(count(p))} cancelled`,
  "notice.stop_decisions": (p) => `{n} open decision${s(count(p))} cancelled`,
  "notice.failed": "The agent failed: {error}",
  "notice.queued": "Your prompt is queued (position {n}).",
  "notice.unknown_command": "Unknown command: `{command}`. Type `/codex help` for the list.",
  "notice.unknown_command_suggest":
    "Unknown command: `{command}`. Did you mean `/codex {suggestion}`? Type `/codex help` for the list.",
  "notice.usage": "Usage: {syntax}",
  "notice.nothing_to_stop": "Nothing to stop: the agent has already finished.",

  "conversation.asked": "{user} in *{project}*:",
  "conversation.state.queued": "Queued",
  "conversation.state.queued_at": "Queued (position {n})",
  "conversation.state.running": "Running…",
  "conversation.state.running_activity": "Running: {activity}",
  "conversation.state.done": "Done",
  "conversation.state.waiting_decision": "Waiting for your answer",
  "conversation.state.waiting_question": "see the question",
  "conversation.state.waiting_approval": "Waiting for approval",
  "conversation.state.waiting_request": "see the request",
  "conversation.state.done_in": "Done in {duration}",
  "conversation.state.failed": "Failed",
  "conversation.state.failed_with": "Failed: {error}",
  "conversation.state.cancelled": "Cancelled",
  "conversation.state.running_for": "Running for {duration}",
  "conversation.state.done_in_tokens": "Done in {duration} · {tokens} tokens",
  "progress.kind.starting": "starting",
  "progress.kind.command": "running a command",
  "progress.kind.editing": "editing files",
  "progress.kind.reading": "reading files",
  "progress.kind.searching": "searching",
  "progress.kind.thinking": "thinking",
  "progress.kind.planning": "planning",
  "progress.kind.writing": "writing",
  "progress.plan": "Plan:",
  "progress.with_detail": "{kind}: {detail}",
  "stream.plan_title": "Plan",
  "interim.label": "Interim message",
  "conversation.stop": "Stop",
  "conversation.stop_confirm.title": "Stop the agent?",
  "conversation.stop_confirm.text":
    "The current turn will be interrupted. You can start the agent again by replying in this thread.",
  "conversation.stop_confirm.confirm": "Stop",
  "conversation.stop_confirm.deny": "Keep running",
  "conversation.hint": "Reply in this thread to continue the conversation.",
  "conversation.followup_queued": "Follow-up queued (position {n}).",
  "conversation.followup_steered":
    "Follow-up sent to the running agent: it takes it into account in this turn.",
  "conversation.followup_received": "Follow-up received: the agent will handle it as soon as possible.",

  "answer.empty": "The agent answered nothing.",
  "answer.part": "Part {index}/{total}",
  "answer.file_note": "Long answer ({chars} characters): the full text is in the attached file.",
  "answer.file_title": "Agent’s answer",
  "answer.file_name": "agent-answer.md",

  "text.cut":
    "[… {omitted} characters cut here; the whole text ({total} characters) is in the file {path} of your working directory …]",

  "duration.seconds": "{s} s",
  "duration.minutes": "{m} min {s} s",
  "duration.hours": "{h} h {m} min",
} satisfies Record<keyof typeof frCore, Message>;
