import type { ConversationMessages } from "./conversationMessages.js";
import type { CoordinationMessages } from "./coordinationMessages.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/**
 * A decision that opens: its card is posted (coordination), then the conversation's state message
 * links to it. Both steps are idempotent, so a deferred edit retries the whole event safely.
 */
export class DecisionOpened implements Renderer<"decision.opened"> {
  constructor(
    private readonly coordination: CoordinationMessages,
    private readonly conversations: ConversationMessages,
  ) {}

  relevant(entries: Array<EntryOf<"decision.opened">>): Promise<Set<number>> {
    return this.coordination.relevant(entries);
  }

  async handle(entry: EntryOf<"decision.opened">): Promise<Rendered> {
    const rendered = await this.coordination.handle(entry);
    if (rendered === "posted")
      await this.conversations.refreshWithQuestion(entry.id, entry.event.conversationId);
    return rendered;
  }

  reportFailure(): Promise<void> {
    return this.coordination.reportFailure();
  }
}
