import type { Kernel } from "../kernel.js";
import { runTick } from "./tick.js";

export { runTick, configureRuns, type RunOptions, type RunTickResult } from "./tick.js";
export { startRun, runStatus, getRun, revisableRun, resumeRun, cancelRun, blockRun } from "./service.js";
export {
  runDetail,
  type RunDetail,
  type RunStatusView,
  type RunStepView,
  type RunEventView,
  type SelfRepairView,
} from "./view.js";
export { parsePlan, type PlanStep } from "./plan.js";
export type { RunStatus, RunStage, StepStatus, SelfRepairStatus, BlockCode } from "./machine.js";

/**
 * Autonomous runs' tick step (registered on every engine). Its state joins the tick's answer
 * only when something happened (`processed`, `blocked`, `self_repair_processed`,
 * `self_repair_recovered` with `blocked_stage`), so that an idle tick still answers `processed`.
 */
export function registerRunTicks(engine: Kernel): void {
  engine.onTick("runs", async (e) => {
    const result = await runTick(e);
    return result.state === "idle" ? undefined : result;
  });
}

export { canRun } from "./machine.js";
