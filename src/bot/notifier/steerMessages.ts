import { followUpAck } from "../../views/conversation.js";
import { RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/**
 * A follow-up sent into the running turn: a short reply in the thread says so, once per
 * follow-up, where the queue's acknowledgement would have given its place in line. When that
 * acknowledgement was posted anyway (the worker took longer than the notifier waits, as on a
 * loaded machine), it is edited to say so rather than a second reply contradicting it.
 */
export class SteerMessages extends RendererBase implements Renderer<"conversation.steered"> {
  relevant(entries: Array<EntryOf<"conversation.steered">>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle({ id: outboxId, event }: EntryOf<"conversation.steered">): Promise<Rendered> {
    const view = await this.api.conversations.view(event.conversationId);
    const address = await this.addresses.get("conversation", event.conversationId);
    if (!view || !address) return "ignored";
    const threadTs = address.threadTs;
    if (!threadTs) return "ignored"; // a follow-up is written in the thread: it exists by now
    const channel = address.channel;
    return this.inLocaleOf(view.userId, async (): Promise<Rendered> => {
      const ack = followUpAck(this.locale, { steered: true });
      if (await this.editPosted(`followup:${event.queueId}`, ack)) return "posted";
      await this.poster.postOnce({
        key: `steered:${event.queueId}`,
        outboxId,
        conversationId: event.conversationId,
        purpose: "notice",
        channel,
        threadTs,
        text: ack.text,
        blocks: ack.blocks,
      });
      return "posted";
    });
  }

  async reportFailure(): Promise<void> {
    // The follow-up reached the agent whatever Slack says: nothing waits on this notice.
  }
}
