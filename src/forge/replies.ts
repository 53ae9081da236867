import { t } from "../i18n/index.js";
import { redactText } from "../redaction.js";
import { escapeClip } from "../views/mrkdwn.js";
import { type ForgeDeps, OWN_MARK } from "./deps.js";
import { publishTurn, targetOf } from "./publish.js";
import type { SlackSide } from "./slackSide.js";
import type { WaitingReply } from "./store/threads.js";

// Answers going back to the forge: each turn a forge request queued is watched until it ends; its
// answer (or why it has none) is then posted on the pull request or issue, with a link to the
// Slack thread, once (the reply is claimed before the post). Answers pass the redactor, as in Slack.

/** GitHub takes at most 65 536 characters in a comment; GitLab more. */
const MAX_COMMENT = 60_000;

function clip(text: string): string {
  return text.length <= MAX_COMMENT ? text : `${text.slice(0, MAX_COMMENT)}\n\n[…]`;
}

/** The comment of a finished turn, or null while it runs (or when it ran as part of another turn). */
async function replyText(
  deps: ForgeDeps,
  slack: SlackSide,
  r: WaitingReply,
): Promise<string | null | "none"> {
  const item = await deps.api.conversations.waitForItem(r.queue_id, 0);
  if (item.status === "queued" || item.status === "running") return null;
  // Steered into the running turn: that turn's answer carries it.
  if (item.status === "steered") return "none";
  const answer = item.status === "done" ? await deps.api.conversations.answer(r.queue_id) : null;
  const failure = answer
    ? null
    : ((await deps.api.conversations.turnFailure(r.queue_id))?.error ?? item.status);
  const body = answer ?? t(deps.locale, "forge.reply.failed", { reason: failure ?? item.status });
  const link = await slack.permalink(r.channel_id, r.thread_ts).catch(() => null);
  const text = link
    ? t(deps.locale, "forge.reply.answer", { answer: clip(redactText(body)), link })
    : t(deps.locale, "forge.reply.answer_no_link", { answer: clip(redactText(body)) });
  return `${text}\n${OWN_MARK}`;
}

/** Posts the answers of the turns that ended since the last pass; answers how many it posted. */
export async function postFinishedAnswers(deps: ForgeDeps, slack: SlackSide): Promise<number> {
  let posted = 0;
  for (const r of await deps.threads.waiting()) {
    const text = await replyText(deps, slack, r);
    if (text === null) continue;
    if (!(await deps.threads.claimReply(r.queue_id))) continue;
    try {
      // Its commits leave first (pushed, or opened as a pull request): the reply says where they went.
      const published = text === "none" ? null : await publishTurn(deps, slack, r);
      const body = published ? `${text}\n\n${published}` : text;
      const url =
        body === "none"
          ? null
          : (await deps.api.forge.comment(r.project_id, targetOf(r.thread_key), body)).url;
      await deps.threads.replyPosted(r.queue_id, url, deps.clock.now());
      if (published)
        await slack
          .postInThread(r.channel_id, r.thread_ts, escapeClip(published, 3000))
          .catch((err: unknown) =>
            deps.logger.warn({ err, queueId: r.queue_id }, "forge publish not said in Slack"),
          );
      posted++;
    } catch (err) {
      deps.logger.warn({ err, queueId: r.queue_id }, "forge reply not posted; tried again later");
      await deps.threads.releaseReply(r.queue_id);
    }
  }
  return posted;
}
