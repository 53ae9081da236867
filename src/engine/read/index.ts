// The public face of engine/read: what other folders of the engine (and its API) use of it.

export { type ConversationView, answerText, conversationView, turnFailure } from "./conversations.js";
export {
  type DecisionCard,
  type IncidentNotice,
  decisionCard,
  incidentNotice,
  itemOpenedIncident,
} from "./coordination.js";
export { approvalsWaiting, egressRefusals, outboxCounts, pingDatabase, turnsByOutcome } from "./health.js";
export { orchestrationThreadView } from "./orchestrations.js";
export { type RunOrigin, runOrigin } from "./runs.js";
