import { type Actor, type ThreadContext, isEngineError } from "../engine/api/model.js";
import { engineErrorText, type Locale, t } from "../i18n/index.js";
import { escapeClip, slackLink } from "../views/mrkdwn.js";
import { pullThread } from "./adopt.js";
import { ciFailureOf } from "./ciFailures.js";
import { followUpFailedCheck } from "./ciFollowUp.js";
import { type ForgeDeps, OWN_MARK, threadKey } from "./deps.js";
import { labelledIssueOf } from "./labels.js";
import { forksRun } from "./forks.js";
import type { ForgeComment } from "./comment.js";
import { commentOf } from "./payloads.js";
import type { SlackSide } from "./slackSide.js";
import type { Delivery } from "./store/deliveries.js";
import { DEFAULT_HANDLE, type ForgeSettings } from "./store/threads.js";

// What one journaled delivery does: a link code proves a link; an `@handle` mention from a linked
// member starts (or continues) the pull request's conversation in the project's Slack channel, as
// that member; anyone else gets one short reply on the forge saying why, and nothing runs.

/** A one-time link code as `/codex forge link` gives it. */
const LINK_CODE = /\bcodexpi-link-([a-z0-9]{12})\b/;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The prompt after `@handle` (the handle alone, not `@handle-bot`), or null without a mention. */
function promptOf(body: string, handle: string): string | null {
  const m = new RegExp(`(?:^|[^\\w@/-])@${escapeRegExp(handle)}(?![\\w-])([\\s\\S]*)$`, "i").exec(body);
  return m ? (m[1] ?? "").trim() : null;
}

/** The review comment's place and the comment itself, quoted as someone else's words. */
function contextOf(c: ForgeComment, now: number): ThreadContext {
  const where = c.review
    ? `Review comment on ${c.review.path}${c.review.line !== null ? `, line ${c.review.line}` : ""}:\n${
        c.review.hunk ? `\`\`\`diff\n${c.review.hunk}\n\`\`\`\n` : ""
      }`
    : c.verdict
      ? `Pull request review (${c.verdict.replace(/_/g, " ")}):\n`
      : "";
  return {
    kind: "thread",
    channel: {
      name: `${c.repo}#${c.number} (${c.onPull ? "pull request" : "issue"}: ${c.title.slice(0, 150)})`,
      topic: null,
    },
    messages: [
      {
        author: c.quotedAs ?? `${c.author.login} (${c.forge})`,
        at: now,
        text: `${where}${c.body}`,
        root: true,
      },
    ],
    omitted: 0,
  };
}

async function reply(deps: ForgeDeps, projectId: string, c: ForgeComment, text: string): Promise<void> {
  await deps.api.forge.comment(
    projectId,
    { kind: c.onPull ? "pull" : "issue", number: c.number },
    `${text}\n${OWN_MARK}`,
  );
}

/**
 * A reply posted once per key (per author and pull request), whatever redeliveries come. Recorded
 * after it is posted: a post that fails is tried again with the delivery (a crash in between may
 * say it twice, never not at all).
 */
async function replyOnce(deps: ForgeDeps, key: string, projectId: string, c: ForgeComment, text: string) {
  if (await deps.threads.noticed(key)) return;
  await reply(deps, projectId, c, text);
  await deps.threads.firstNotice(key, deps.clock.now());
}

async function proveLink(deps: ForgeDeps, d: Delivery, c: ForgeComment, code: string): Promise<string> {
  const user = await deps.links.takeCode(c.forge, code, deps.clock.now());
  const params = { login: c.author.login, forge: c.forge };
  if (!user) {
    await reply(deps, d.project_id, c, t(deps.locale, "forge.reply.code_unknown", params));
    return "link_code_unknown";
  }
  await deps.links.link(
    { forge: c.forge, login: c.author.login, account_id: c.author.id, user_id: user },
    user,
    deps.clock.now(),
  );
  await reply(deps, d.project_id, c, t(deps.locale, "forge.reply.linked", params));
  return "linked";
}

/** Handles one delivery; answers what it did (kept as the delivery's outcome). */
export async function handleDelivery(deps: ForgeDeps, slack: SlackSide, d: Delivery): Promise<string> {
  const payload: unknown = JSON.parse(d.body);
  const settings = await deps.threads.settings(d.project_id);
  const handle = settings.handle ?? DEFAULT_HANDLE;
  // An issue given the project's label (its handle), or assigned to the account the handle names,
  // asks for the issue's work, as who labelled (assigned) it.
  const triggers = settings.triggers.split(",");
  const failure = ciFailureOf(d.forge, d.event, payload);
  if (failure) return followUpFailedCheck(deps, slack, d, failure, settings);
  const issue = labelledIssueOf(d.forge, d.event, payload, handle);
  if (issue && !triggers.includes("issues")) return "trigger_off";
  if (issue) {
    const prompt = t(deps.locale, "forge.issue.prompt", {
      ref: `${issue.repo}#${issue.number}`,
    });
    return askAs(deps, slack, d, issue, prompt, settings);
  }
  const c = commentOf(d.forge, d.event, payload);
  if (!c || c.body.includes(OWN_MARK)) return "ignored";
  const code = LINK_CODE.exec(c.body)?.[0];
  if (code) return proveLink(deps, d, c, code);
  const prompt = promptOf(c.body, handle);
  if (prompt === null || prompt === "") return "ignored";
  if (!triggers.includes("comments")) return "trigger_off";
  return askAs(deps, slack, d, c, prompt, settings);
}

/** A request from the forge, run as the member its author is linked to, or refused with a reply saying why. */
async function askAs(
  deps: ForgeDeps,
  slack: SlackSide,
  d: Delivery,
  c: ForgeComment,
  prompt: string,
  settings: ForgeSettings,
): Promise<string> {
  const who = { login: c.author.login, forge: c.forge };
  const member = await deps.links.memberOf(c.forge, c.author.login, c.author.id);
  const noticeKey = `${threadKey(d.project_id, c)}:${c.author.login.toLowerCase()}`;
  if (!member) {
    await replyOnce(
      deps,
      `not_linked:${noticeKey}`,
      d.project_id,
      c,
      t(deps.locale, "forge.reply.not_linked", who),
    );
    return "not_linked";
  }
  const head = c.head ?? (c.onPull ? await deps.api.forge.pullRequestHead(d.project_id, c.number) : null);
  // A fork's pull request runs only where the project allows it, in a lane (never pushed).
  if (head?.fork && !(await forksRun(deps, d.project_id, settings))) {
    await replyOnce(deps, `fork:${noticeKey}`, d.project_id, c, t(deps.locale, "forge.reply.fork", who));
    return "fork_refused";
  }
  const actor: Actor = { userId: member, isAdmin: deps.isAdmin(member), via: "forge" };
  try {
    const branch = head?.branch ?? null;
    return await converse(deps, slack, d, c, { actor, prompt, settings, branch, fork: head?.fork === true });
  } catch (err) {
    if (!isEngineError(err)) throw err;
    // Refused by the engine (rights, budget, options): said once on the forge, nothing runs.
    const reason = engineErrorText(deps.locale, err);
    await replyOnce(
      deps,
      `refused:${d.forge}:${d.delivery_id}`,
      d.project_id,
      c,
      t(deps.locale, "forge.reply.refused", { ...who, reason }),
    );
    return `refused:${err.reason}`;
  }
}

interface Request {
  actor: Actor;
  prompt: string;
  settings: ForgeSettings;
  branch: string | null;
  /** The pull request comes from a fork: its head is fetched from the base repository's ref of it. */
  fork: boolean;
}

/** Starts the pull request's conversation in the channel, or continues it; its answer will go back. */
async function converse(
  deps: ForgeDeps,
  slack: SlackSide,
  d: Delivery,
  c: ForgeComment,
  r: Request,
): Promise<string> {
  const key = threadKey(d.project_id, c);
  const request = {
    requestKey: `forge:${d.forge}:${d.delivery_id}`,
    context: contextOf(c, deps.clock.now()),
  };
  const known = c.onPull
    ? await pullThread(deps, slack, d.project_id, key, c)
    : await deps.threads.thread(key);
  if (known) {
    const conversation = await deps.api.conversations.load(known.conversation_id);
    const { item } = await deps.api.conversations.followUp(r.actor, conversation, r.prompt, request);
    await deps.threads.awaitReply(item.id, key, deps.clock.now());
    return "continued";
  }
  // Only a new conversation needs the forge channel: a known one (or one whose lane opened this
  // pull request) speaks in its own thread.
  if (!r.settings.channel_id) {
    await replyOnce(deps, `no_channel:${key}`, d.project_id, c, t(deps.locale, "forge.reply.no_channel"));
    return "no_channel";
  }
  const project = await deps.api.forge.project(d.project_id);
  // Checked before the root is posted: a refused request leaves no message behind in Slack.
  await deps.api.projects.forActor(r.actor, project.name);
  // In branch mode the lane starts from the pull request's head branch (`branch=`), which the
  // checkout may not have yet (or have behind): fetched first, never forced, before the root.
  const branch = await laneBase(deps, d.project_id, c.number, project.workspaceMode, r);
  const options = branch ? `branch=${branch} ` : "";
  const channel = r.settings.channel_id as string;
  const rootTs = d.root_ts ?? (await slack.postRoot(channel, rootText(deps.locale, c, r.prompt)));
  if (!d.root_ts) await deps.deliveries.rootPosted(d, rootTs);
  const started = await deps.api.conversations.ask(r.actor, project.name, `${options}${r.prompt}`, {
    ...request,
    onCreated: slack.addressFor(channel, rootTs),
  });
  await deps.threads.recordThread({
    key,
    project_id: d.project_id,
    conversation_id: started.conversation.id,
    channel_id: channel,
    thread_ts: rootTs,
    created_at: deps.clock.now(),
  });
  await deps.threads.awaitReply(started.item.id, key, deps.clock.now());
  return "started";
}

/**
 * The branch the conversation's lane starts from (branch mode only), brought into the checkout
 * first: the pull request's head branch, or, for a fork's, codexpi's own copy of its head.
 */
async function laneBase(deps: ForgeDeps, projectId: string, n: number, mode: string, r: Request) {
  if (!r.branch || mode !== "branch") return null;
  if (r.fork) return deps.api.forge.fetchPullRequest(projectId, n);
  await deps.api.forge.fetchBranch(projectId, r.branch);
  return r.branch;
}

function rootText(locale: Locale, c: ForgeComment, prompt: string): string {
  return t(locale, "forge.root", {
    login: escapeClip(c.author.login, 100),
    link: slackLink(c.url, `${c.repo}#${c.number}`),
    title: escapeClip(c.title, 200),
    prompt: escapeClip(prompt, 2500),
  });
}
