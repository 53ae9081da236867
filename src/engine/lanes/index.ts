// The public face of engine/lanes: a conversation's own branch in a sealed clone, what changed
// there, and how its work leaves (merge into the project).

export {
  type ChangeLimits,
  DEFAULT_CHANGE_LIMITS,
  type LaneChanges,
  type LaneFileChange,
  laneChanges,
} from "./changes.js";
export {
  conflictFollowUpPrompt,
  type LaneBaseUpdate,
  type LaneMerge,
  laneBaseRef,
  mergeLane,
  updateLaneBase,
} from "./merge.js";
