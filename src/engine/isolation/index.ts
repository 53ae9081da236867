// The public face of engine/isolation: what other folders of the engine (and its API) use of it.

export { ensurePrivateDirectory, readRegularFile, regularFilesUnder, replaceFile } from "./agentFiles.js";
export { agentNetwork, findNetworkStack, isNetworkStack, mcpLoopbackPorts } from "./agentNetwork.js";
export {
  type CodexJailInput,
  forwardedCommand,
  type JailForwards,
  jailedCodex,
  operatorCodexHome,
  projectCodexState,
} from "./codexJail.js";
export {
  DEFAULT_AGENT_ENV,
  codexEnvironment,
  isForbiddenAgentVariable,
  testCommandEnvironment,
  workerEnvironment,
} from "./environment.js";
export { findBwrap, jailArgs, listedAlternates, workspaceMounts } from "./jail.js";
export { probeJail } from "./probe.js";
export {
  type GitJailMode,
  type GitRemoteAccess,
  type RepoGitAccess,
  repoGit,
  repoGitOrNull,
} from "./repoGit.js";
export { type AgentPurpose, type SandboxMode, sandboxFor } from "./sandboxMode.js";
