import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import type { QueueItem } from "../schema.js";
import {
  ask,
  followUp,
  loadConversation,
  stop,
  type ConversationWithProject,
  type RequestOrigin,
} from "../conversations/index.js";
import type { StopReport } from "../conversations/index.js";
import { waitForItem } from "../conversations/index.js";
import { answerOf, itemOfRequest } from "../conversations/index.js";
import { queuePosition, waitedForItsConversation } from "../conversations/index.js";
import { followUpFate, type FollowUpFate } from "../conversations/index.js";
import { queueStatus, type QueueStatus } from "../dispatch/index.js";
import { answerText, conversationView, turnFailure, type ConversationView } from "../read/index.js";
import { latestTurn, runningItems, type LatestTurn } from "./turns.js";
import { bound, type Bound } from "./bind.js";

/** Conversations: a prompt, its follow-ups, stopping them, and what the front ends show of them. */
export interface ConversationsApi {
  /** Starts a conversation in a project the actor may prompt, and dispatches it at once. */
  ask: Bound<typeof ask>;
  /** Queues a follow-up in a conversation the actor may drive (its same Codex thread). */
  followUp(
    actor: Actor,
    conversation: ConversationWithProject,
    prompt: string,
    request?: RequestOrigin,
  ): ReturnType<typeof followUp>;
  /**
   * Whether a request's prompt is queued already: a front end skips, before any work or word, a
   * delivery whose twin was handled (a Slack message comes as `app_mention` and `message`).
   */
  handled(requestKey: string): Promise<boolean>;
  /** Stops a conversation the actor may drive: queued prompts cancelled, a running agent stopped. */
  stop(actor: Actor, conversationId: string): Promise<StopReport>;
  /** A conversation with its project, or not_found. */
  load(conversationId: string): Promise<ConversationWithProject>;
  /** The final answer a turn wrote, if any. */
  answer(queueId: string): Promise<string | null>;
  /** The latest turn of a conversation the actor may see: its item, answer and open decision. */
  latestTurn(actor: Actor, conversationId: string): Promise<LatestTurn>;
  /** The ids of the conversation's running items (what a stop waits for). */
  runningItems(actor: Actor, conversationId: string): Promise<string[]>;
  /** Waits until a queue item is finished, or `timeoutMs` passes; answers it as it is then. */
  waitForItem(queueId: string, timeoutMs: number, pollMs?: number): Promise<QueueItem>;
  /** The queue as the actor may see it: running, queued, limits and pauses. */
  status(actor: Actor): Promise<QueueStatus>;
  /** How many items are ahead of a queued one (null once it left the queue). */
  queuePosition(queueId: string): Promise<number | null>;
  /** Whether a queued item waited for its own conversation's earlier turn rather than for a slot. */
  waitedForItsConversation(queueId: string): Promise<boolean>;
  /** What became of a follow-up sent while its conversation was busy (steered in, steering, queued). */
  followUpFate(queueId: string): Promise<FollowUpFate>;
  /** What a conversation's thread shows: its state, its turns' progress. */
  view(conversationId: string): Promise<ConversationView | null>;
  /** An answer's text by its message id. */
  answerText(messageId: string): Promise<string | null>;
  /** Why a turn failed, as its reader is told, and how long it ran. */
  turnFailure(queueId: string): ReturnType<typeof turnFailure>;
}

export function conversationsApi(kernel: Kernel): ConversationsApi {
  const { db } = kernel;
  return {
    ask: bound(kernel, ask),
    followUp: (actor, conversation, prompt, request) =>
      followUp(kernel, actor, conversation, prompt, request),
    handled: async (requestKey) => (await itemOfRequest(db, requestKey)) !== null,
    stop: (actor, conversationId) => stop(kernel, actor, conversationId),
    load: (conversationId) => loadConversation(kernel, conversationId),
    answer: async (queueId) => (await answerOf(db, queueId))?.content ?? null,
    latestTurn: (actor, conversationId) => latestTurn(kernel, actor, conversationId),
    runningItems: (actor, conversationId) => runningItems(kernel, actor, conversationId),
    waitForItem: (queueId, timeoutMs, pollMs) => waitForItem(db, queueId, timeoutMs, pollMs),
    status: (actor) => queueStatus(kernel, actor),
    queuePosition: (queueId) => queuePosition(db, queueId),
    waitedForItsConversation: (queueId) => waitedForItsConversation(db, queueId),
    followUpFate: (queueId) => followUpFate(db, queueId, kernel.clock.now()),
    view: (conversationId) => conversationView(db, conversationId),
    answerText: (messageId) => answerText(db, messageId),
    turnFailure: (queueId) => turnFailure(db, queueId),
  };
}
