// The engine's vocabulary as front ends render it: the types of what the API answers, and the
// pure rules of its state machines (which buttons a status offers). Nothing here reads or writes.

export { EngineError, isEngineError } from "../errors.js";
export type { Generated, OnCreated } from "../database.js";
export { CLI_ACTOR, type Actor, type NewProject, type ProjectUpdate } from "../projects/projects.js";
export type { ApprovalMode, ProjectRole } from "../schema.js";
export type { PauseReason } from "../kernel.js";
export type { ConversationWithProject } from "../conversations/conversationService.js";
export { parseProgress, type ActivityKind, type PlanStep, type Progress } from "../conversations/progress.js";
export type { ConversationView } from "../read/conversations.js";
export type { DecisionCard, IncidentNotice } from "../read/coordination.js";
export { canStop } from "../conversations/conversationMachine.js";
export { withoutDecisionMarker } from "../protocol/markers.js";
export { canDecision } from "../coordination/decisionMachine.js";
export type { DecisionView } from "../coordination/decisions.js";
export { canIncident } from "../coordination/incidentMachine.js";
export type { IncidentView } from "../coordination/incidents.js";
export { canSpecialist } from "../coordination/specialistMachine.js";
export type { SpecialistView } from "../coordination/specialists.js";
export type { NotificationPreferences } from "../coordination/preferences.js";
export { APPROVAL_ANSWERS, isAnswerable, type ApprovalAnswer } from "../approvals/machine.js";
export type { ApprovalView } from "../approvals/view.js";
export type { RuntimePolicy } from "../projects/policies.js";
export { canRun } from "../runs/machine.js";
export type {
  BlockCode,
  RunDetail,
  RunStage,
  RunStatus,
  RunStatusView,
  RunStepView,
  SelfRepairStatus,
  StepStatus,
} from "../runs/index.js";
export type {
  OrchestrationStatus,
  OrchestrationView,
  TestResult,
  VerificationRecord,
} from "../orchestrations/index.js";
export type { OrchestrationEvent } from "../orchestrations/store.js";
export type { EventKind, EventOf } from "../outbox.js";
export type { MalformedEntry, OutboxEntry } from "../outboxQueue.js";
