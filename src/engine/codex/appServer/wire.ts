/**
 * The part of Codex's app-server protocol codexpi speaks, typed with the files the pinned binary
 * generates (protocol/, checked by test/engine/appServerProtocol.test.ts): each method's params
 * and result. Nothing here runs; it keeps the runner honest about the wire.
 */
import type { InitializeParams } from "./protocol/InitializeParams.js";
import type { InitializeResponse } from "./protocol/InitializeResponse.js";
import type { AgentMessageDeltaNotification } from "./protocol/v2/AgentMessageDeltaNotification.js";
import type { CommandExecutionRequestApprovalParams } from "./protocol/v2/CommandExecutionRequestApprovalParams.js";
import type { CommandExecutionRequestApprovalResponse } from "./protocol/v2/CommandExecutionRequestApprovalResponse.js";
import type { ErrorNotification } from "./protocol/v2/ErrorNotification.js";
import type { FileChangeRequestApprovalParams } from "./protocol/v2/FileChangeRequestApprovalParams.js";
import type { FileChangeRequestApprovalResponse } from "./protocol/v2/FileChangeRequestApprovalResponse.js";
import type { ItemCompletedNotification } from "./protocol/v2/ItemCompletedNotification.js";
import type { ItemStartedNotification } from "./protocol/v2/ItemStartedNotification.js";
import type { ThreadResumeParams } from "./protocol/v2/ThreadResumeParams.js";
import type { ThreadResumeResponse } from "./protocol/v2/ThreadResumeResponse.js";
import type { ThreadStartedNotification } from "./protocol/v2/ThreadStartedNotification.js";
import type { ThreadStartParams } from "./protocol/v2/ThreadStartParams.js";
import type { ThreadStartResponse } from "./protocol/v2/ThreadStartResponse.js";
import type { ThreadStatusChangedNotification } from "./protocol/v2/ThreadStatusChangedNotification.js";
import type { ThreadTokenUsageUpdatedNotification } from "./protocol/v2/ThreadTokenUsageUpdatedNotification.js";
import type { TurnCompletedNotification } from "./protocol/v2/TurnCompletedNotification.js";
import type { TurnInterruptParams } from "./protocol/v2/TurnInterruptParams.js";
import type { TurnInterruptResponse } from "./protocol/v2/TurnInterruptResponse.js";
import type { TurnPlanUpdatedNotification } from "./protocol/v2/TurnPlanUpdatedNotification.js";
import type { TurnStartedNotification } from "./protocol/v2/TurnStartedNotification.js";
import type { TurnStartParams } from "./protocol/v2/TurnStartParams.js";
import type { TurnStartResponse } from "./protocol/v2/TurnStartResponse.js";
import type { TurnSteerParams } from "./protocol/v2/TurnSteerParams.js";
import type { TurnSteerResponse } from "./protocol/v2/TurnSteerResponse.js";

/** Requests codexpi sends to the app-server: method → [params, result]. */
export interface ClientRequests {
  initialize: [InitializeParams, InitializeResponse];
  "thread/start": [ThreadStartParams, ThreadStartResponse];
  "thread/resume": [ThreadResumeParams, ThreadResumeResponse];
  "turn/start": [TurnStartParams, TurnStartResponse];
  "turn/interrupt": [TurnInterruptParams, TurnInterruptResponse];
  "turn/steer": [TurnSteerParams, TurnSteerResponse];
}

/** Notifications codexpi reads (it ignores the others): method → params. */
export interface Notifications {
  "thread/started": ThreadStartedNotification;
  "thread/status/changed": ThreadStatusChangedNotification;
  "thread/tokenUsage/updated": ThreadTokenUsageUpdatedNotification;
  "turn/started": TurnStartedNotification;
  "turn/completed": TurnCompletedNotification;
  "turn/plan/updated": TurnPlanUpdatedNotification;
  "item/started": ItemStartedNotification;
  "item/completed": ItemCompletedNotification;
  "item/agentMessage/delta": AgentMessageDeltaNotification;
  error: ErrorNotification;
}

/** Requests the app-server sends that codexpi answers: method → [params, result]. */
export interface ServerRequests {
  "item/commandExecution/requestApproval": [
    CommandExecutionRequestApprovalParams,
    CommandExecutionRequestApprovalResponse,
  ];
  "item/fileChange/requestApproval": [FileChangeRequestApprovalParams, FileChangeRequestApprovalResponse];
}
