import type { ApprovalMessages } from "./approvalMessages.js";
import type { ConversationMessages } from "./conversationMessages.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of approvals. */
type ApprovalKind = "approval.requested" | "approval.answered" | "approval.expired" | "approval.abandoned";

/**
 * An approval's card (approvals), then the conversation's state message: "waiting for approval"
 * with a link to the card while it is pending, running again once it is closed. Both steps are
 * idempotent, so a deferred edit retries the whole event safely (as decisionOpened.ts does).
 */
export class ApprovalStatus implements Renderer<ApprovalKind> {
  constructor(
    private readonly approvals: ApprovalMessages,
    private readonly conversations: ConversationMessages,
  ) {}

  relevant(entries: Array<EntryOf<ApprovalKind>>): Promise<Set<number>> {
    return this.approvals.relevant(entries);
  }

  async handle(entry: EntryOf<ApprovalKind>): Promise<Rendered> {
    const rendered = await this.approvals.handle(entry);
    if (rendered !== "ignored")
      await this.conversations.refreshAfterApproval(entry.id, entry.event.conversationId);
    return rendered;
  }

  reportFailure(): Promise<void> {
    return this.approvals.reportFailure();
  }
}
