// The public face of engine/codex: what other folders of the engine (and its API) use of it.

export { agentInstructions, tomlString } from "./agentInstructions.js";
export { withPlaceInstructions } from "./placeInstructions.js";
export type { AppServerTurnOptions } from "./appServer/appServerRunner.js";
export type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from "./appServer/approvalTypes.js";
export { codexSupportPath, resolveCodexBinary } from "./codexBinary.js";
export type { CodexState } from "./codexEvents.js";
export { type RunnerKind, runnerFor, turnRunner } from "./runnerChoice.js";
export { steerLoop } from "./steerLoop.js";
export type { ModelLink, ModelLinkEvent, TurnOptions, TurnResult } from "./turnSupervisor.js";
