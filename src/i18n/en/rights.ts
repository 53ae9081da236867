import type { rights as fr } from "../fr/rights.js";
import type { Message } from "../message.js";

/**
 * English messages of what a person may do in what they can see (issue 20): who may prompt or
 * answer, and how to be allowed. `{owner}`, `{author}` and `{person}` are Slack mentions (or a
 * name) passed by the view.
 */
export const rights = {
  "reason.conversation_reserved":
    "only the person who started this conversation, the owner of {project} and admins may prompt in it",
  "reason.decision_reserved": "only the person this decision was asked of and admins may answer it",
  "reason.approval_reserved":
    "only the person who started this conversation, the project’s owner and admins may answer this request",
  "rights.approval_reserved":
    "Only {person} (who started this conversation), the owner of the project and admins may answer this request; you may follow the conversation.",
  "rights.conversation_reserved":
    "Only {author} (who started this conversation), {owner} (the owner of *{project}*) and admins may prompt in this conversation; you may follow it.",
  "rights.conversation_reserved_owner":
    "Only {owner} (who started this conversation and owns *{project}*) and admins may prompt in this conversation; you may follow it.",
  "rights.project_reserved":
    "Only {owner} (its owner), the people they allow and admins may prompt in *{project}*; you may follow its conversations.",
  "rights.ask_allow": "To be allowed, ask {owner} or an admin: `/codex project allow {project} @you`.",
  "rights.start_own": "Start your own conversation: `/codex ask {project} …`.",
  "rights.decision_reserved":
    "Only {person} (who was asked) and admins may answer this decision; you may follow the conversation.",
  "rights.owner_unknown": "its owner",
  "rights.not_found_hint":
    "`/codex projects` lists the projects you can use; an admin adds one with `/codex project add`.",
  "rights.decisions_hint": "`/codex decisions` lists the decisions waiting for you.",
  "rights.cli_not_found_hint": "`codexpi project list` lists the projects; `codexpi project add` adds one.",
} satisfies Record<keyof typeof fr, Message>;
