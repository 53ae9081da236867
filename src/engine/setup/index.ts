// The public face of engine/setup (issue 31, item 4): a project's setup, run once per base in the
// jail with its secrets, its result cached for the next workspace at the same base.

export { cacheEntry, dropProjectCache, readCacheMeta } from "./cache.js";
export { COMMITTED_SETUP, type SetupCommand, setupCommandOf } from "./command.js";
export { type Prepared, prepareWorkspace, SetupFailed, type SetupProject } from "./prepare.js";
export { runSetup, type SetupRun } from "./runner.js";
export {
  checkSecretKey,
  readSetupSecrets,
  setSetupSecret,
  setupSecretNames,
  setupSecretsPath,
  unsetSetupSecret,
} from "./secrets.js";
export { type SetupNetwork, setupNetwork } from "./setupNetwork.js";
