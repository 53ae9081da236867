import type { Kernel } from "../kernel.js";
import { processOrchestrations } from "./tick.js";

export * from "./service.js";
export * from "./view.js";
export type { OrchestrationStatus } from "./machine.js";
export type { TestResult, VerificationRecord } from "./verification.js";
export { processOrchestrations } from "./tick.js";

/** Orchestrations' tick step (registered on every engine): finished agents move on, stuck steps resume. */
export function registerOrchestrationTicks(engine: Kernel): void {
  engine.onTick("orchestrations", (e) => processOrchestrations(e));
}

export { defaultDeps } from "./effects.js";
export { type OrchestrationEvent, findOrchestration } from "./store.js";
export { agentWorkdir } from "./workdir.js";
