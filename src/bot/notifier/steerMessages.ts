import type { Database } from "../../engine/database.js";
import { conversationView } from "../../engine/read/conversations.js";
import type { Locale } from "../../i18n/index.js";
import { followUpAck } from "../../views/conversation.js";
import type { SlackAddresses } from "../store/addresses.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import type { SlackPoster } from "./poster.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/**
 * A follow-up sent into the running turn: a short reply in the thread says so, once per
 * follow-up, where the queue's acknowledgement would have given its place in line.
 */
export class SteerMessages implements Renderer<"conversation.steered"> {
  constructor(
    private readonly db: Database,
    private readonly poster: SlackPoster,
    private readonly addresses: SlackAddresses,
    private readonly fallback: Locale,
    private readonly locales: UserLocales,
  ) {}

  async relevant(entries: Array<EntryOf<"conversation.steered">>): Promise<Set<number>> {
    const inSlack = await this.addresses.addressed("conversation", [
      ...new Set(entries.map((e) => e.event.conversationId)),
    ]);
    return new Set(entries.filter((e) => inSlack.has(e.event.conversationId)).map((e) => e.id));
  }

  async handle({ id: outboxId, event }: EntryOf<"conversation.steered">): Promise<Rendered> {
    const view = await conversationView(this.db, event.conversationId);
    const address = await this.addresses.get("conversation", event.conversationId);
    if (!view || !address) return "ignored";
    const { threadTs, channel } = address;
    if (!threadTs) return "ignored"; // a follow-up is written in the thread: it exists by now
    return inLocale(await this.locales.of(view.userId), async (): Promise<Rendered> => {
      const ack = followUpAck(currentLocale(this.fallback), { steered: true });
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
