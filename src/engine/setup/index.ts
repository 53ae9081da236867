// The public face of engine/setup (issue 31, item 4): a project's setup, run once per base in the
// jail with its secrets, its result cached for the next workspace at the same base. The egress
// proxy plugs in at ./setupNetwork.ts.

export { cacheEntry, readCacheMeta } from "./cache.js";
export { prepareWorkspace, SetupFailed, type SetupProject } from "./prepare.js";
export { checkSecretKey, setSetupSecret, setupSecretNames, unsetSetupSecret } from "./secrets.js";
