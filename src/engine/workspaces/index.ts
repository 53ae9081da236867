// The public face of engine/workspaces: what other folders of the engine (and its API) use of it.

export {
  cloneBase,
  commitClone,
  fetchFromClone,
  isSealedClone,
  makeClone,
  removeClone,
  unusableWorkdir,
} from "./clones.js";
export { ensureSelfClone, finishSelfClone, pruneClones, withReport } from "./selfClones.js";
