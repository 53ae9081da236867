import { engineErrorText, t, type Locale } from "../i18n/index.js";
import { escapeMrkdwn } from "./mrkdwn.js";

/** An engine refusal as the bot receives it (code, reason, params). */
interface Refusal {
  code: string;
  reason: string;
  params: Readonly<Record<string, string | number>>;
}

const SLACK_USER = /^[UW][A-Z0-9]+$/;

/** A Slack mention of a person id, or "its owner" when there is none to mention. */
const mention = (locale: Locale, id: string | number | undefined): string =>
  typeof id === "string" && SLACK_USER.test(id) ? `<@${id}>` : t(locale, "rights.owner_unknown");

/**
 * What a refused person reads in Slack when the engine's refusal is about rights (issue 20): who
 * may prompt or answer, named with mentions, and how to be allowed; a "not found" points to what
 * exists. Null for any other refusal (the catalog's sentence for it is the answer).
 */
export function rightsText(locale: Locale, err: Refusal): string | null {
  const p = err.params;
  const project = escapeMrkdwn(String(p.project ?? p.name ?? ""));
  const owner = mention(locale, p.owner);
  const allow = () => t(locale, "rights.ask_allow", { owner, project });
  switch (err.reason) {
    case "conversation_reserved": {
      // Where the thread is the team's, whoever may prompt the project drives it: they cannot.
      if (p.thread_prompters === "prompters")
        return `${t(locale, "rights.conversation_reserved_prompters", { owner, project })} ${allow()}`;
      const author = mention(locale, p.author);
      const next = p.may_prompt_project ? t(locale, "rights.start_own", { project }) : allow();
      const who =
        p.author === p.owner
          ? t(locale, "rights.conversation_reserved_owner", { owner, project })
          : t(locale, "rights.conversation_reserved", { author, owner, project });
      return `${who} ${next}`;
    }
    case "project_read_only":
      return `${t(locale, "rights.project_reserved", { owner, project })} ${allow()}`;
    case "decision_reserved":
      return p.thread_prompters === "prompters"
        ? t(locale, "rights.decision_reserved_prompters", { person: mention(locale, p.person), project })
        : t(locale, "rights.decision_reserved", { person: mention(locale, p.person) });
    case "approval_reserved":
      return t(locale, "rights.approval_reserved", { person: mention(locale, p.person) });
    case "project_not_found":
    case "conversation_not_found":
      return `${engineErrorText(locale, err)}. ${t(locale, "rights.not_found_hint")}`;
    case "decision_not_found":
      return `${engineErrorText(locale, err)}. ${t(locale, "rights.decisions_hint")}`;
    default:
      return null;
  }
}

/** What the once-per-thread notice says about one conversation (DESIGN "A thread is the team's"). */
export interface ThreadNotice {
  project: string;
  owner: string | null;
  author: string | null;
  threadPrompters: "author" | "prompters";
  /** Whether they may prompt the project (only a thread reserved to its author refuses them then). */
  mayPromptProject: boolean;
  /** The install's admins (Slack user ids), named as the people who may allow them too. */
  admins: readonly string[];
  /** A shared specialist's conversation: only admins prompt it, nobody is allowed to. */
  sharedSpecialist?: boolean;
}

/**
 * What someone who may not prompt in a conversation's thread is told, once per thread: who may,
 * that their messages reach the agent as context with the next follow-up, and how to be allowed
 * (naming the project's owner and the admins) or, when they may prompt the project, to start
 * their own conversation.
 */
export function threadNoticeText(locale: Locale, n: ThreadNotice): string {
  const told = [t(locale, "thread.notice_context"), t(locale, "thread.notice_once")];
  if (n.sharedSpecialist) {
    const reason = t(locale, "reason.specialist_shared_admins_only");
    return [`${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`, ...told].join(" ");
  }
  const project = escapeMrkdwn(n.project);
  const owner = mention(locale, n.owner ?? undefined);
  const who =
    n.threadPrompters === "prompters"
      ? t(locale, "rights.conversation_reserved_prompters", { owner, project })
      : n.author === n.owner
        ? t(locale, "rights.conversation_reserved_owner", { owner, project })
        : t(locale, "rights.conversation_reserved", {
            author: mention(locale, n.author ?? undefined),
            owner,
            project,
          });
  const admins = n.admins.filter((id) => SLACK_USER.test(id)).map((id) => `<@${id}>`);
  const next = n.mayPromptProject
    ? t(locale, "rights.start_own", { project })
    : admins.length
      ? t(locale, "thread.ask_allow", { owner, project, admins: admins.join(", ") })
      : t(locale, "thread.ask_allow_no_admins", { owner, project });
  return [who, told[0], next, told[1]].join(" ");
}
