// The public face of engine/lanes: a conversation's own branch in a sealed clone, what changed
// there, and how its work leaves (merge into the project). (Its types — LaneChanges, LaneMerge,
// LaneBaseUpdate, ChangeLimits — are re-exported here once another folder names them.)

export { laneChanges } from "./changes.js";
export { conflictFollowUpPrompt, mergeLane, updateLaneBase } from "./merge.js";
