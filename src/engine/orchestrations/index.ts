import type { Kernel } from "../kernel.js";
import { processOrchestrations } from "./tick.js";

export * from "./service.js";
export type { OrchestrationStatus, OrchestrationAction } from "./machine.js";
export type { OrchestrationDeps } from "./effects.js";
export type { OrchestrationGit, MergeResult } from "./git.js";
export type { TestResult, TestRunner, VerificationRecord } from "./verification.js";
export { processOrchestrations } from "./tick.js";

/** Orchestrations' tick step (registered on every engine): finished agents move on, stuck steps resume. */
export function registerOrchestrationTicks(engine: Kernel): void {
  engine.onTick("orchestrations", (e) => processOrchestrations(e));
}
