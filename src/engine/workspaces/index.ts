// The public face of engine/workspaces: what other folders of the engine (and its API) use of it.

export {
  assertSealed,
  cloneBase,
  commitClone,
  fetchFromClone,
  fetchIntoClone,
  isSealedClone,
  makeClone,
  readClone,
  removeClone,
  startMergeInClone,
  unusableWorkdir,
} from "./clones.js";
export { ensureSelfClone, finishSelfClone, pruneClones, withReport } from "./selfClones.js";
export { checkoutRefusal, type MergeResult, mergeIntoCheckout } from "./checkoutMerge.js";
