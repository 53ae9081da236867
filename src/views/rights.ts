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
      return t(locale, "rights.decision_reserved", { person: mention(locale, p.person) });
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
