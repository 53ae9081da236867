import type { Kernel } from "../kernel.js";
import { expireApprovals } from "./lifecycle.js";

/** Approvals' tick step: pending requests past their deadline expire (answered `cancel`). */
export function registerApprovalTicks(engine: Kernel): void {
  engine.onTick("approvals", expireApprovals);
}

export { answerApprovalUseCase } from "./answers.js";
export { abandonApprovalsReactor } from "./lifecycle.js";
export { APPROVAL_ANSWERS, type ApprovalAnswer, isAnswerable } from "./machine.js";
export { type ApprovalView, pendingApprovalsFor, readApproval } from "./view.js";
export { approvalHandler } from "./waiter.js";
