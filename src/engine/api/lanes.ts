import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import type { PullRequest } from "../forge/index.js";
import { emit } from "../outbox.js";
import { loadConversation } from "../conversations/index.js";
import {
  askAgentToMerge,
  conversationOfPullRequest,
  discardLane,
  laneCardData,
  laneOfConversation,
  mergeLaneOf,
  openLanePullRequest,
  pushLane,
  pushLaneToHead,
  type HeadPush,
  type LaneCardData,
  type LaneMergeOutcome,
  type LaneView,
} from "../lanes/index.js";
import { conversationsApi } from "./conversations.js";

/** Lanes (issue 18): a branch-mode conversation's own clone and branch. */
export interface LanesApi {
  /** The conversation's lane (branch, base, state; never its path), null when it has none. */
  ofConversation(actor: Actor, conversationId: string): Promise<LaneView | null>;
  /**
   * Removes the conversation's lane and its branch (the conversation's person, the project's owner
   * or an admin; refused while an agent works or waits there).
   */
  discard(actor: Actor, conversationId: string): Promise<LaneView>;
  /**
   * The conversation whose lane opened a project's pull request `number`, and that pull request's
   * link, or null (the forge front end's read: a failed check or a mention on that pull request
   * continues that conversation).
   */
  conversationOfPullRequest(
    projectId: string,
    number: number,
  ): Promise<{ conversationId: string; url: string } | null>;
  /** What the lane's card shows (the notifier's read; null when the conversation has no lane). */
  card(conversationId: string): Promise<LaneCardData | null>;
  /** Merges the lane into its base in the project's checkout (owner, admins; prompters when the project lets them). */
  merge(actor: Actor, conversationId: string): Promise<LaneMergeOutcome>;
  /** Pushes the lane's branch to the project's remote (the conversation's person, admins). */
  push(actor: Actor, conversationId: string): Promise<{ remote: string }>;
  /**
   * Pushes the lane's commits to `head`, the pull request's branch the lane started from (issue 33):
   * never forced; `forge_push_rejected` when that branch moved on (the conversation's person, admins).
   */
  pushToHead(actor: Actor, conversationId: string, head: string): Promise<HeadPush>;
  /** Opens (or finds) the lane's pull request, pushing first (the conversation's person, admins). */
  openPullRequest(
    actor: Actor,
    conversationId: string,
    link: { threadUrl: string | null; requester: string; closes?: number },
  ): Promise<PullRequest>;
  /**
   * Brings the base into the lane: merged at once when clean, else a follow-up asks the agent to
   * resolve the conflicts in its lane (queued and dispatched as any follow-up of the actor).
   */
  askToMerge(actor: Actor, conversationId: string): Promise<"up_to_date" | "merged" | "asked">;
}

export function lanesApi(kernel: Kernel): LanesApi {
  return {
    ofConversation: (actor, conversationId) => laneOfConversation(kernel, actor, conversationId),
    discard: async (actor, conversationId) => {
      const view = await discardLane(kernel, actor, conversationId);
      await kernel.db
        .updateTable("lanes")
        .set({ ended_by: actor.userId })
        .where("conversation_id", "=", conversationId)
        .where("status", "=", "discarded")
        .where("ended_by", "is", null)
        .execute();
      await emit(kernel.db, kernel.clock.now(), { kind: "lane.updated", conversationId });
      return view;
    },
    conversationOfPullRequest: (projectId, number) => conversationOfPullRequest(kernel.db, projectId, number),
    card: (conversationId) => laneCardData(kernel, conversationId),
    merge: (actor, conversationId) => mergeLaneOf(kernel, actor, conversationId),
    push: (actor, conversationId) => pushLane(kernel, actor, conversationId),
    pushToHead: (actor, conversationId, head) => pushLaneToHead(kernel, actor, conversationId, head),
    openPullRequest: (actor, conversationId, link) =>
      openLanePullRequest(kernel, actor, conversationId, link),
    askToMerge: async (actor, conversationId) => {
      const r = await askAgentToMerge(kernel, actor, conversationId);
      if (r.kind !== "asked") return r.kind;
      const conversation = await loadConversation(kernel, conversationId);
      await conversationsApi(kernel).followUp(actor, conversation, r.prompt);
      return "asked";
    },
  };
}
