import type { threadTeam as fr } from "../fr/threadTeam.js";
import type { Message } from "../message.js";

/**
 * English messages of a thread that is the team's (issue 32, items 2 and 3): who may carry a
 * conversation on, what someone who may not is told once, and who wrote a follow-up (what the
 * agent reads). `{owner}`, `{author}` and `{admins}` are Slack mentions passed by the view.
 */
export const threadTeam = {
  "reason.thread_prompters_invalid": "--thread-prompters must be author or prompters",
  "rights.conversation_reserved_prompters":
    "Only the people allowed to prompt *{project}* ({owner} owns it) and admins may prompt in this conversation; you may follow it.",
  "rights.decision_reserved_prompters":
    "Only {person} (who was asked), the people allowed to prompt *{project}* and admins may answer this decision; you may follow the conversation.",
  "thread.notice_context":
    "Your messages stay in the thread: the agent reads them, as context, with the next follow-up.",
  "thread.ask_allow":
    "To be allowed, ask {owner} or an admin ({admins}): `/codex project allow {project} @you`.",
  "thread.ask_allow_no_admins":
    "To be allowed, ask {owner} or an admin: `/codex project allow {project} @you`.",
  "thread.notice_once": "(I won’t say this again in this thread.)",
  "agent.writer.teammate":
    "Follow-up written in the conversation's Slack thread by {name} (not the person who started the conversation):",
  "agent.writer.author": "Follow-up written by {name}, who started the conversation:",
  "project.thread_prompters_prompters":
    "*{name}*: anyone allowed to prompt it may follow up, stop and answer decisions in its conversations.",
  "project.thread_prompters_author":
    "*{name}*: only the person who started a conversation (and the owner, and admins) may follow it up, stop it and answer its decisions.",
  "projects.thread_author": "threads reserved to their author",
  "cli.project.thread_prompters": "{name}: who follows up its conversations: {value}",
  "cli.project.thread_author": "threads reserved to their author",
  "cli.error.thread_prompters": "--thread-prompters must be author or prompters",
} satisfies Record<keyof typeof fr, Message>;
