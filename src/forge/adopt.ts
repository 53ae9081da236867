import type { ForgeDeps } from "./deps.js";
import type { SlackSide } from "./slackSide.js";
import type { ForgeThreadsTable } from "./store/schema.js";

// A pull request codexpi opened for a conversation — an issue's (publish.ts), or the lane card's
// Open pull request — belongs to that conversation: a failed check on it, or a new mention on it,
// continues it rather than being ignored or starting another. The lane remembers the pull request
// it opened; the first delivery about it records the pull request's key as that conversation's
// forge thread, in the conversation's own Slack thread (the forge channel's for an issue's, the
// channel it was asked in for the card's).

/** Whether a pull request's link names the repository (`owner/name`, a GitLab path) in its path. */
const linkNames = (url: string, repo: string) => url.toLowerCase().includes(`/${repo.toLowerCase()}/`);

/**
 * The pull request's conversation: the one recorded for its key, else the one whose lane opened it
 * (then recorded). `pull` is the pull request as the delivery names it.
 */
export async function pullThread(
  deps: ForgeDeps,
  slack: SlackSide,
  projectId: string,
  key: string,
  pull: { repo: string; number: number },
): Promise<ForgeThreadsTable | null> {
  const known = await deps.threads.thread(key);
  if (known) return known;
  const lane = await deps.api.lanes.conversationOfPullRequest(projectId, pull.number);
  // Opened on the repository the delivery is about (not on one the project named before).
  if (!lane || !linkNames(lane.url, pull.repo)) return null;
  const conversationId = lane.conversationId;
  // A conversation asked outside Slack (the CLI) has no thread to speak in: not the forge's.
  const where = await slack.threadOf(conversationId);
  if (!where) return null;
  await deps.threads.recordThread({
    key,
    project_id: projectId,
    conversation_id: conversationId,
    channel_id: where.channel,
    thread_ts: where.threadTs,
    created_at: deps.clock.now(),
  });
  return deps.threads.thread(key);
}
