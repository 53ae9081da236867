import { type Actor, isEngineError } from "../engine/api/model.js";
import { engineErrorText, t } from "../i18n/index.js";
import type { ForgeDeps } from "./deps.js";
import { forkNotPushed } from "./forks.js";
import type { SlackSide } from "./slackSide.js";
import type { WaitingReply } from "./store/threads.js";

// Issue 33, items 3 and 4: where a forge-started turn's commits go once it ended. A pull request's
// conversation pushes its lane to the pull request's head branch (never forced; never a fork's:
// the forge is asked again, whatever the delivery said); an issue's conversation opens its lane
// as a pull request whose body closes the issue. Both as the conversation's member (the engine
// checks their rights and the lane's seal), both through the engine's lane use cases, the same as
// the card's Push and Open pull request. What happened is one line, for the forge and the thread.

/** The pull request or issue a thread key names (handling.ts's threadKey). */
export function targetOf(threadKey: string): { kind: "pull" | "issue"; number: number } {
  const hash = threadKey.lastIndexOf("#");
  const kind = threadKey.slice(0, hash).endsWith(":issue") ? "issue" : "pull";
  return { kind, number: Number(threadKey.slice(hash + 1)) };
}

/** Refusals that say nothing: no lane (a direct-mode project), or a turn queued since (the next one publishes). */
const QUIET = new Set(["lane_not_found", "lane_busy", "lane_ended"]);

async function pushToPull(deps: ForgeDeps, r: WaitingReply, actor: Actor, number: number) {
  const head = await deps.api.forge.pullRequestHead(r.project_id, number);
  if (head.fork) return forkNotPushed(deps, r.conversation_id, r.thread_key);
  const pushed = await deps.api.lanes.pushToHead(actor, r.conversation_id, head.branch);
  if (pushed.kind !== "pushed") return null;
  return t(deps.locale, "forge.push.pushed", { branch: head.branch, sha: pushed.revision.slice(0, 12) });
}

async function openForIssue(deps: ForgeDeps, slack: SlackSide, r: WaitingReply, actor: Actor, n: number) {
  const card = await deps.api.lanes.card(r.conversation_id);
  if (!card || card.state.kind !== "open" || card.changes.totalCommits === 0) return null;
  const threadUrl = await slack.permalink(r.channel_id, r.thread_ts).catch(() => null);
  const pr = await deps.api.lanes.openPullRequest(actor, r.conversation_id, {
    threadUrl,
    requester: actor.userId,
    closes: n,
  });
  // Opened once; later turns' commits reach it through the same call's push, said by the card.
  if (card.pullRequest) return null;
  return t(deps.locale, "forge.issue.pr_opened", { url: pr.url, number: n });
}

/**
 * Publishes what a finished forge turn committed in its lane; answers the line saying what
 * happened (null: nothing to say). Never throws for a refusal: its reason is the line.
 */
export async function publishTurn(
  deps: ForgeDeps,
  slack: SlackSide,
  r: WaitingReply,
): Promise<string | null> {
  const target = targetOf(r.thread_key);
  const conversation = await deps.api.conversations.load(r.conversation_id);
  const userId = conversation.conversation.user_id;
  if (!userId) return null;
  const actor: Actor = { userId, isAdmin: deps.isAdmin(userId), via: "forge" };
  try {
    return target.kind === "pull"
      ? await pushToPull(deps, r, actor, target.number)
      : await openForIssue(deps, slack, r, actor, target.number);
  } catch (err) {
    if (!isEngineError(err)) throw err;
    if (QUIET.has(err.reason)) return null;
    const reason = engineErrorText(deps.locale, err);
    return t(deps.locale, target.kind === "pull" ? "forge.push.refused" : "forge.issue.pr_refused", {
      reason,
    });
  }
}
