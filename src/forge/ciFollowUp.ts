import type { Actor, ThreadContext } from "../engine/api/model.js";
import { isEngineError } from "../engine/api/model.js";
import type { FailedJob } from "../engine/api/forge.js";
import { engineErrorText, t } from "../i18n/index.js";
import { pullThread } from "./adopt.js";
import type { CiFailure } from "./ciFailures.js";
import { type ForgeDeps, OWN_MARK, threadKey } from "./deps.js";
import type { SlackSide } from "./slackSide.js";
import type { Delivery } from "./store/deliveries.js";
import type { ForgeSettings } from "./store/threads.js";

// A failed check on a pull request whose conversation codexpi has (issue 33, item 5): when the
// project allows it (`ci` among its triggers, `--fix-ci on`), the conversation gets a follow-up
// turn carrying the failing job's name and the end of its log, quoted as someone else's words (as
// a review comment is). It runs as the member who started the conversation, with their rights and
// budget (refused: said on the pull request, nothing runs). One try per failing commit; after
// `--fix-ci-tries` tries, one message on the pull request and in the Slack thread says it gives
// up, and nothing more runs by itself. A pull request codexpi has no conversation for is ignored;
// one it opened for a conversation (adopt.ts) is that conversation's.

/** How much of a failed job's log reaches the agent: its last characters (within one quoted message). */
const LOG_TAIL = 3_500;

const shortSha = (sha: string) => sha.slice(0, 12);

/** The failed job's log tail, quoted as the CI's words; the cut is said. */
function logContext(f: CiFailure, number: number, job: FailedJob, now: number): ThreadContext {
  const cut = job.cut > 0 ? `, its first ${job.cut} characters cut` : "";
  const where = job.url ? ` (${job.url})` : "";
  return {
    kind: "thread",
    channel: { name: `${f.repo}#${number} (pull request: failed check)`, topic: null },
    messages: [
      {
        author: `CI job "${job.name.slice(0, 100)}" (${f.forge})`,
        at: now,
        text: `Log of the failed job ${job.name}${where}, its last ${job.log.length} characters${cut}:\n\`\`\`\n${job.log.replace(/```/g, "'''")}\n\`\`\``,
        root: true,
      },
    ],
    omitted: 0,
  };
}

/** Says once, on the pull request and in its Slack thread, that no more fixes run by themselves. */
async function giveUp(
  deps: ForgeDeps,
  slack: SlackSide,
  key: string,
  f: CiFailure,
  number: number,
  thread: { project_id: string; channel_id: string; thread_ts: string },
  tries: number,
): Promise<string> {
  const notice = `ci_gave_up:${key}`;
  if (await deps.threads.noticed(notice)) return "ci_given_up";
  const text = t(deps.locale, "forge.ci.gave_up", { sha: shortSha(f.headSha), tries });
  await deps.api.forge.comment(thread.project_id, { kind: "pull", number }, `${text}\n${OWN_MARK}`);
  await slack.postInThread(thread.channel_id, thread.thread_ts, text);
  await deps.threads.firstNotice(notice, deps.clock.now());
  return "ci_gave_up";
}

async function onePull(
  deps: ForgeDeps,
  slack: SlackSide,
  d: Delivery,
  f: CiFailure,
  number: number,
  settings: ForgeSettings,
): Promise<string> {
  const key = threadKey(d.project_id, { forge: f.forge, repo: f.repo, onPull: true, number });
  const thread = await pullThread(deps, slack, d.project_id, key, { repo: f.repo, number });
  if (!thread) return "not_ours";
  if (await deps.ciTries.tried(key, f.headSha)) return "ci_seen";
  const tries = await deps.ciTries.count(key);
  if (tries >= settings.fix_ci_tries) return giveUp(deps, slack, key, f, number, thread, tries);
  const job = await deps.api.forge.failedJob(d.project_id, f.run, LOG_TAIL);
  if (!job) return "no_failed_job";
  const conversation = await deps.api.conversations.load(thread.conversation_id);
  const member = conversation.conversation.user_id;
  if (!member) return "no_member";
  const actor: Actor = { userId: member, isAdmin: deps.isAdmin(member), via: "forge" };
  const now = deps.clock.now();
  const prompt = t(deps.locale, "forge.ci.prompt", {
    job: job.name,
    sha: shortSha(f.headSha),
    try: tries + 1,
    max: settings.fix_ci_tries,
  });
  try {
    const { item } = await deps.api.conversations.followUp(actor, conversation, prompt, {
      requestKey: `forge:${d.forge}:${d.delivery_id}:${number}`,
      context: logContext(f, number, job, now),
    });
    await deps.ciTries.record(key, f.headSha, job.name, item.id, now);
    await deps.threads.awaitReply(item.id, key, now);
    return "ci_follow_up";
  } catch (err) {
    if (!isEngineError(err)) throw err;
    // Refused as the member (rights, budget): said once on the pull request, nothing runs.
    const notice = `ci_refused:${key}:${f.headSha}`;
    if (!(await deps.threads.noticed(notice))) {
      const reason = engineErrorText(deps.locale, err);
      const text = t(deps.locale, "forge.ci.refused", { job: job.name, reason });
      await deps.api.forge.comment(d.project_id, { kind: "pull", number }, `${text}\n${OWN_MARK}`);
      await deps.threads.firstNotice(notice, deps.clock.now());
    }
    return `refused:${err.reason}`;
  }
}

/** Handles a failed CI run; answers what it did for each pull request it names (the delivery's outcome). */
export async function followUpFailedCheck(
  deps: ForgeDeps,
  slack: SlackSide,
  d: Delivery,
  f: CiFailure,
  settings: ForgeSettings,
): Promise<string> {
  if (!settings.triggers.split(",").includes("ci")) return "trigger_off";
  if (settings.fix_ci !== "on") return "fix_ci_off";
  // A run that names no pull request (GitLab's branch pipelines do not) ran for its branch's.
  const pulls =
    f.pulls.length > 0 || !f.headBranch
      ? f.pulls
      : await deps.api.forge.openPullRequestsOf(d.project_id, f.headBranch);
  if (pulls.length === 0) return "no_pull";
  const outcomes: string[] = [];
  for (const number of pulls) outcomes.push(await onePull(deps, slack, d, f, number, settings));
  return outcomes.join(",");
}
