import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import { discardLane, laneOfConversation, type LaneView } from "../lanes/index.js";

/** Lanes (issue 18): a branch-mode conversation's own clone and branch. */
export interface LanesApi {
  /** The conversation's lane (branch, base, state; never its path), null when it has none. */
  ofConversation(actor: Actor, conversationId: string): Promise<LaneView | null>;
  /**
   * Removes the conversation's lane and its branch (the conversation's person, the project's owner
   * or an admin; refused while an agent works or waits there).
   */
  discard(actor: Actor, conversationId: string): Promise<LaneView>;
}

export function lanesApi(kernel: Kernel): LanesApi {
  return {
    ofConversation: (actor, conversationId) => laneOfConversation(kernel, actor, conversationId),
    discard: (actor, conversationId) => discardLane(kernel, actor, conversationId),
  };
}
