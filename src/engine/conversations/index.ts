// The public face of engine/conversations: what other folders of the engine (and its API) use of it.

export { canStop } from "./conversationMachine.js";
export {
  type ConversationWithProject,
  type RequestOrigin,
  ask,
  followUp,
  loadConversation,
  stop,
} from "./conversationService.js";
export { lockConversation, moveConversation } from "./conversationStore.js";
export { answerOf, createConversation, enqueueIn, itemOfRequest } from "./conversations.js";
export { type TextCtx, deliverInbox, passText, pruneInboxes } from "./inbox.js";
export { OUTCOME_RETRY, type RetryPolicy, dropKeptOutcome, keepOutcome, retryWrite } from "./keptOutcome.js";
export { type Outcome, finishItem } from "./outcome.js";
export { isBackground } from "./priorities.js";
export {
  type ActivityKind,
  type PlanStep,
  type Progress,
  commandKind,
  parseProgress,
  serializeProgress,
  tokensOf,
  unwrapCommand,
} from "./progress.js";
export {
  itemsAhead,
  queueCounts,
  queuePosition,
  failureRunEnd,
  turnCompletedSince,
  waitedForItsConversation,
} from "./queueReads.js";
export { moveItem } from "./queueStore.js";
export { recoverOutcome } from "./recovery.js";
export { type FollowUpFate, followUpFate, markSteerable, markSteered, steerableFollowUps } from "./steer.js";
export { type StopReport, type StopResult, stopConversation } from "./stop.js";
export { waitForItem } from "./waitFor.js";
export { allowedModels } from "./requestOptions.js";
export { MAX_PLACE_INSTRUCTIONS, type PlaceSettings } from "./placeSettings.js";
