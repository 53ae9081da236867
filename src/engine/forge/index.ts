// The public face of engine/forge: pushing a branch, opening pull (merge) requests, a project's
// forge settings and the tokens kept for them (outside every jail, never in the database).

export { forgeTokenPath, readForgeToken, removeForgeToken, writeForgeToken } from "./credentials.js";
export { FORK_BRANCH_PREFIX } from "./fetchBranch.js";
export {
  fetchProjectBranch,
  fetchProjectPullRequest,
  forgeCloneUrl,
  openProjectPullRequest,
  projectPullRequestState,
  pushProjectBranch,
} from "./projectForge.js";
export { type PullRequest, openPullRequest, pullRequestState } from "./pullRequests.js";
export { pushBranch } from "./push.js";
export { forgeFromRemote, remoteTransport } from "./remoteUrl.js";
export { type ForgeSettings, projectForge, setForge } from "./settings.js";
export {
  type ForgeView,
  type Publishing,
  assertCanPublish,
  projectForgeView,
  projectPublishing,
} from "./publishing.js";
export {
  type DiscussionTarget,
  type PullRequestHead,
  openPullRequestsOf,
  postForgeComment,
  pullRequestHead,
} from "./discussion.js";
export { projectForgeTarget } from "./projectForge.js";
export { type CiRun, type FailedJob, failedJob } from "./ciLogs.js";
export { hasWebhookSecret, removeWebhookSecret, verifyWebhook, writeWebhookSecret } from "./webhooks.js";
export { type ForgeAccess, forgeAccess } from "./forgeAccess.js";
export { pollComments } from "./polling.js";
export type { ListingPoll, PollCursor, PolledComment } from "./pollingShared.js";
