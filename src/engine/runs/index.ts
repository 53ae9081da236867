import type { Engine } from "../engine.js";

/** Autonomous runs' tick steps (registered on every engine). */
export function registerRunTicks(_engine: Engine): void {
  // filled by the autonomous runs feature
}
