import type { Engine } from "../engine.js";

/** Orchestrations' tick steps (registered on every engine). */
export function registerOrchestrationTicks(_engine: Engine): void {
  // filled by the orchestrations feature
}
