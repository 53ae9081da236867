import type { Kernel } from "../kernel.js";
import { expireApprovals } from "./lifecycle.js";

/** Approvals' tick step: pending requests past their deadline expire (answered `cancel`). */
export function registerApprovalTicks(engine: Kernel): void {
  engine.onTick("approvals", expireApprovals);
}
