import type { QueueStatus } from "../schema.js";
import { actionsAt, allows, type ActionTable, type TransitionTable } from "../stateMachine.js";

// A queue item's state machine, pure. An item is claimed once per attempt and finished once: by
// its worker, the reaper (worker gone) or a stop (still queued). Finished items never move again.
// A person's follow-up may instead be `steered`: sent into its conversation's running turn (steer.ts).

export type { QueueStatus };

/** What can happen to a queue item. */
export type QueueAction = "claim" | "finish" | "stop";

/** The transition table; a missing status fails to compile. */
export const QUEUE_TRANSITIONS = {
  queued: ["running", "cancelled", "steered"],
  running: ["done", "failed", "cancelled"],
  done: [],
  failed: [],
  cancelled: [],
  steered: [],
} as const satisfies TransitionTable<QueueStatus>;

/** The statuses each action needs (a stop cancels a queued item, and flags a running one). */
const QUEUE_ACTIONS = {
  claim: ["queued"],
  finish: ["running"],
  stop: ["queued", "running"],
} as const satisfies ActionTable<QueueStatus, QueueAction>;

/** Whether an item in `status` allows `action`. */
export const canQueueItem = (status: QueueStatus, action: QueueAction): boolean =>
  allows(QUEUE_ACTIONS, status, action);

/** The actions an item in `status` allows. */
export const queueItemActions = (status: QueueStatus): QueueAction[] => actionsAt(QUEUE_ACTIONS, status);
