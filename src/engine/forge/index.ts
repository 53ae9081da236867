// The public face of engine/forge: pushing a branch, opening pull (merge) requests, a project's
// forge settings and the tokens kept for them (outside every jail, never in the database).

export {
  type ForgeToken,
  credentialsDir,
  forgeTokenPath,
  readForgeToken,
  removeForgeToken,
  writeForgeToken,
} from "./credentials.js";
export {
  type ForgeHost,
  openProjectPullRequest,
  projectPullRequestState,
  projectRemoteUrl,
  pushProjectBranch,
} from "./projectForge.js";
export {
  type ForgeTarget,
  type PullRequest,
  type PullRequestInput,
  type PullRequestState,
  openPullRequest,
  pullRequestState,
} from "./pullRequests.js";
export {
  type PushCredential,
  type PushRequest,
  type PushResult,
  isPushableBranch,
  pushBranch,
} from "./push.js";
export { type DerivedForge, type ForgeKind, forgeFromRemote, remoteTransport } from "./remoteUrl.js";
export { type ForgeSettings, checkedForgeSettings, projectForge, setForge } from "./settings.js";
