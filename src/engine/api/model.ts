// The engine's vocabulary as front ends render it: the types of what the API answers, and the
// pure rules of its state machines (which buttons a status offers). Nothing here reads or writes.

export { EngineError, isEngineError } from "../errors.js";
export type { Generated, OnCreated } from "../database.js";
export { CLI_ACTOR, type Actor, type NewProject, type ProjectUpdate } from "../projects/index.js";
export type { ApprovalMode, MemoryWriters, ProjectRole, ThreadPrompters, WorkspaceMode } from "../schema.js";
export type { ForgeSettings, ForgeView } from "../forge/index.js";
export type { LaneCardData } from "../lanes/index.js";
export type { PauseReason } from "../kernel.js";
export type { ConversationWithProject } from "../conversations/index.js";
export { parseProgress, type ActivityKind, type PlanStep, type Progress } from "../conversations/index.js";
export type { ConversationView } from "../read/index.js";
export type { DecisionCard, IncidentNotice } from "../read/index.js";
export { canStop } from "../conversations/index.js";
export { allowedModels } from "../conversations/index.js";
export { MAX_PLACE_INSTRUCTIONS, type PlaceSettings } from "../conversations/index.js";
export {
  type HostEntry,
  type NetworkMode,
  type NetworkPolicy,
  NETWORK_MODES,
  PRESET_NAMES,
  formatHostEntry,
  projectNetwork,
} from "../network/index.js";
export type { NetworkChange } from "../projects/index.js";
export type { QuotedMessage, ThreadContext } from "../threadContext/index.js";
export { oneLine as oneLineName, utc as utcTime } from "../threadContext/index.js";
export { MAX_NOTE_CHARS, withoutDecisionMarker, withoutRememberMarker } from "../protocol/index.js";
export { canDecision } from "../coordination/index.js";
export type { DecisionView } from "../coordination/index.js";
export { canIncident } from "../coordination/index.js";
export type { IncidentView } from "../coordination/index.js";
export { canSpecialist } from "../coordination/index.js";
export type { SpecialistView } from "../coordination/index.js";
export type { NotificationPreferences } from "../coordination/index.js";
export { APPROVAL_ANSWERS, isAnswerable, type ApprovalAnswer } from "../approvals/index.js";
export type { ApprovalView } from "../approvals/index.js";
export {
  THREAD_PROMPTERS,
  WORKSPACE_MODES,
  isSharedSpecialist,
  type RuntimePolicy,
} from "../projects/index.js";
export { canRun } from "../runs/index.js";
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
export type { OrchestrationEvent } from "../orchestrations/index.js";
export type { EventKind, EventOf } from "../outbox.js";
export type { MalformedEntry, OutboxEntry } from "../outboxQueue.js";
export type {
  BudgetChange,
  BudgetLimits,
  BudgetView,
  UsageReport,
  UsageRow,
  UsageSums,
} from "../usage/index.js";
// Files in and out of a conversation (issue 19): kinds, safe names, where they are staged.
export {
  fileKindOf,
  formatBytes,
  handBackDirOf,
  isTextName,
  safeFileName,
  stagingDirOf,
  type Attachment,
  type FileRefused,
} from "../files/index.js";
export type { CatchUp, ScheduleView } from "../schedules/index.js";
export type { MemoryListing, NoteView } from "../memory/index.js";
export type { AuditEvent, AuditPage } from "../audit/index.js";
export type { ChannelMember, ScheduledIn } from "../kernel.js";
