// The public face of engine/projects: what other folders of the engine (and its API) use of it.

export { canSeeConversationId, conversationRights, mayAnswer } from "./access.js";
export {
  type LayoutProblem,
  assertNoOverlap,
  installLayoutProblems,
  installRoots,
  realPath,
} from "./layout.js";
export { copyCodexSessions, hostDataDir, moveProject } from "./placement.js";
export {
  type RuntimePolicy,
  backgroundWindowOpen,
  globalPolicy,
  projectOverrides,
  runtimePolicies,
  setProjectLimit,
} from "./policies.js";
export { updatePolicyUseCase } from "./policyService.js";
export {
  type Actor,
  CLI_ACTOR,
  SPECIALIST_GROUP,
  assertAdmin,
  canPromptProject,
  canSee,
  isSharedSpecialist,
  mayPromptProject,
} from "./projectRights.js";
export {
  type NewProject,
  type ProjectUpdate,
  addProject,
  channelsOpenToMembers,
  findProjectByName,
  getProject,
  listProjects,
  projectForActor,
  projectNotFound,
  projectForOwner,
  removeProject,
  setProjectPrompter,
  setProjectSteer,
  setProjectThreadPrompters,
  setProjectVisibility,
  THREAD_PROMPTERS,
  updateProject,
} from "./projects.js";
export { type PromptTarget, promptTarget } from "./promptTarget.js";
export { shareProject, unshareProject } from "./projectShares.js";
export { holdsCheckout } from "./checkoutRule.js";
export { WORKSPACE_MODES, defaultWorkspaceMode, setWorkspaceMode } from "./workspaceMode.js";
export { type NetworkChange, allowHosts, denyHosts, setNetworkMode } from "./network.js";
