import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import { answerApprovalUseCase } from "../approvals/index.js";
import type { ApprovalAnswer } from "../approvals/index.js";
import { pendingApprovalsFor, readApproval, type ApprovalView } from "../approvals/index.js";
import { now } from "./deferred.js";

/** Approvals: what an agent asks before it acts on the host (an escalation), and its answer. */
export interface ApprovalsApi {
  /** Answers an approval the actor may answer; the waiting agent goes on within a second. */
  answer(actor: Actor, approvalId: string, answer: ApprovalAnswer): Promise<ApprovalView>;
  /** The approvals waiting for the actor's answer. */
  pendingFor(actor: Actor): Promise<ApprovalView[]>;
  /** What an approval's message shows. */
  read(approvalId: string): Promise<ApprovalView | undefined>;
}

export function approvalsApi(kernel: Kernel): ApprovalsApi {
  return {
    answer: (actor, approvalId, answer) =>
      now(kernel, () => answerApprovalUseCase(kernel, actor, approvalId, answer)),
    pendingFor: (actor) => pendingApprovalsFor(kernel.db, actor),
    read: (approvalId) => readApproval(kernel.db, approvalId),
  };
}
