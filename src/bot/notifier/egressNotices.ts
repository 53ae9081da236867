import { egressRefusedText } from "../../views/egress.js";
import type { EntryOf, Rendered, Renderer } from "./renderer.js";
import { RendererBase } from "./rendererBase.js";

/**
 * A turn whose agent was refused a connection (issue 31, item 3): one notice in the
 * conversation's thread per turn, naming each refused host and the command an admin runs to allow
 * it. Posted once under the turn's key, so a retried event says nothing twice.
 */
export class EgressNotices extends RendererBase implements Renderer<"conversation.egress_refused"> {
  relevant(entries: Array<EntryOf<"conversation.egress_refused">>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle({ id: outboxId, event: e }: EntryOf<"conversation.egress_refused">): Promise<Rendered> {
    const address = await this.addresses.get("conversation", e.conversationId);
    if (!address || !e.refused.length) return "ignored";
    const { conversation } = await this.api.conversations.load(e.conversationId);
    return this.inLocaleOf(conversation.user_id, async (): Promise<Rendered> => {
      await this.poster.postOnce({
        key: `egress-refused:${e.queueId}`,
        outboxId,
        conversationId: e.conversationId,
        purpose: "notice",
        channel: address.channel,
        threadTs: address.threadTs ?? address.statusTs,
        text: egressRefusedText(this.locale, e.project, e.refused),
      });
      return "posted";
    });
  }

  /** The turn's answer is in the thread already; a notice that cannot go is not worth another. */
  async reportFailure(): Promise<void> {}
}
