import type { ConversationStatus } from "../schema.js";
import { actionsAt, allows, type ActionTable, type TransitionTable } from "../stateMachine.js";
import { canQueueItem, type QueueStatus } from "./queueMachine.js";

// A conversation's state machine, pure. Its status mirrors its queue items for listings: queued
// while an item waits, running while one runs, then how the last one ended (idle after a stop).

/** What a person can do with a conversation. */
export type ConversationAction = "prompt" | "stop";

/** The transition table; a missing status fails to compile. */
export const CONVERSATION_TRANSITIONS = {
  idle: ["queued", "running"],
  // A cancelled queued item leaves it idle; a finish may come while the mirror still says queued.
  queued: ["queued", "running", "idle", "completed", "failed"],
  running: ["queued", "completed", "failed", "idle"],
  completed: ["queued", "running"],
  failed: ["queued", "running"],
} as const satisfies TransitionTable<ConversationStatus>;

/** Statuses a new prompt moves to `queued` (a running conversation stays running: its mirror says so). */
export const ENQUEUE_FROM = [
  "idle",
  "queued",
  "completed",
  "failed",
] as const satisfies readonly ConversationStatus[];

/** The statuses each action needs: a prompt may come at any time (it waits its turn); Stop is for work in progress. */
const CONVERSATION_ACTIONS = {
  prompt: ["idle", "queued", "running", "completed", "failed"],
  stop: ["queued", "running"],
} as const satisfies ActionTable<ConversationStatus, ConversationAction>;

/** Whether a conversation in `status` allows `action`. */
export const canConversation = (status: ConversationStatus, action: ConversationAction): boolean =>
  allows(CONVERSATION_ACTIONS, status, action);

/** The actions a conversation in `status` allows. */
export const conversationActions = (status: ConversationStatus): ConversationAction[] =>
  actionsAt(CONVERSATION_ACTIONS, status);

/**
 * Whether a conversation's Stop has something to stop: its current item is queued or running, or
 * a decision it asked still waits (a stop cancels it).
 */
export const canStop = (current: QueueStatus, decisionOpen: boolean): boolean =>
  canQueueItem(current, "stop") || decisionOpen;

/** The status the mirror takes when an item ends: queued while others wait, else the item's ending. */
export function statusAfterItem(
  ended: "done" | "failed" | "cancelled",
  othersWaiting: boolean,
): ConversationStatus {
  if (othersWaiting) return "queued";
  return ended === "done" ? "completed" : ended === "failed" ? "failed" : "idle";
}
