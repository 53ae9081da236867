// The public face of engine/lanes (issue 18): a branch-mode conversation's lane, a sealed clone of
// its project on a branch of its own. What other folders of the engine (and its API) use of it.
import type { Kernel } from "../kernel.js";
import { sweepLanes } from "./sweep.js";

export { conversationOfPullRequest, ensureLane, laneAfterTurn, laneOf, lanePath } from "./lane.js";
export { isForkLane } from "./forkLanes.js";
export { sweepLanes } from "./sweep.js";
export { type LaneView, discardLane, laneOfConversation } from "./service.js";

/** Lanes' tick step (registered on every engine): the retention sweep. */
export function registerLaneTicks(engine: Kernel): void {
  engine.onTick("lanes", async (e) => {
    const expired = await sweepLanes(e);
    return expired ? { expired } : undefined;
  });
}
export { laneChanges } from "./changes.js";
export { conflictFollowUpPrompt, mergeLane, updateLaneBase } from "./merge.js";
export { type HeadPush, pushLaneToHead } from "./headPush.js";
export { type LaneCardData, laneCardData, redrawLaneCards } from "./card.js";
export {
  type LaneMergeOutcome,
  askAgentToMerge,
  mergeLaneOf,
  openLanePullRequest,
  pushLane,
} from "./leave.js";
