import type { LaneCardData } from "../../engine/api/model.js";
import { laneCard } from "../../views/laneCard.js";
import type { ConversationMessages } from "./conversationMessages.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";
import { RendererBase } from "./rendererBase.js";

// A lane's card in its conversation's thread (issue 18, item 3): posted after each turn that left
// commits in the lane, redrawn in place when the lane's state changes (a merge, a conflict, a push,
// a pull request, a discard). Every post goes through the poster (once per key), so a retried
// event neither posts twice nor uploads its diff twice.

/** The keys of a conversation's cards start with this (the latest one is the one redrawn). */
const CARD_KEY = "lane-card:";

export class LaneCards extends RendererBase implements Renderer<"lane.updated"> {
  relevant(entries: Array<EntryOf<"lane.updated">>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle(entry: EntryOf<"lane.updated">): Promise<Rendered> {
    return (await this.show(entry.id, entry.event.conversationId, "redraw")) ? "posted" : "ignored";
  }

  /** A card could not be shown: the thread's other messages tell the person already. */
  async reportFailure(): Promise<void> {}

  /** After a turn: a new card when the lane has work in it. */
  async afterTurn(outboxId: number, conversationId: string): Promise<void> {
    await this.show(outboxId, conversationId, "new");
  }

  /** The conversation's latest card, once posted: the one a change of state redraws. */
  private async latestCard(conversationId: string) {
    const last = await this.poster.posts.latestWithPrefix(`${CARD_KEY}${conversationId}:`);
    const posted = last?.status === "posted" ? await this.poster.posts.find(last.key) : null;
    return posted?.ts ? { channel: posted.channel, ts: posted.ts } : null;
  }

  private async show(outboxId: number, conversationId: string, mode: "new" | "redraw"): Promise<boolean> {
    const data = await this.api.lanes.card(conversationId);
    const address = data ? await this.addresses.get("conversation", conversationId) : null;
    if (!data || !address) return false;
    const threadTs = address.threadTs ?? address.statusTs;
    const latest = await this.latestCard(conversationId);
    if (mode === "new" && data.state.kind === "open" && data.changes.totalCommits === 0) return false;
    // An open lane's card is posted by a turn only; a redraw (forge settings changed, say) edits
    // the card there is, and posts none where the thread has none yet.
    if (mode === "redraw" && !latest && data.state.kind === "open") return false;
    await this.inLocaleOf(data.personId, async () => {
      const card = laneCard(this.locale, inputOf(data));
      if (mode === "redraw" && latest) return this.edit(latest.channel, latest.ts, card);
      const place = { outboxId, conversationId, channel: address.channel, threadTs };
      await this.poster.postOnce({
        ...place,
        key: `${CARD_KEY}${conversationId}:${outboxId}`,
        purpose: "notice",
        text: card.text,
        blocks: card.blocks,
      });
      if (card.diffFile)
        await this.uploadOnce(`lane-diff:${conversationId}:${outboxId}`, place, card.diffFile);
    });
    return true;
  }
}

const inputOf = (d: LaneCardData) => ({
  conversationId: d.conversationId,
  branch: d.branch,
  base: d.base,
  changes: d.changes,
  state: d.state,
  pushed: d.pushed,
  pullRequest: d.pullRequest,
  confirmMerge: d.confirmMerge,
  project: d.project,
  publishing: d.publishing,
});

/** The end of a turn: the conversation's messages, then the lane's card when it has one. */
export class TurnThenLaneCard implements Renderer<"conversation.finished"> {
  constructor(
    private readonly conversations: ConversationMessages,
    private readonly cards: LaneCards,
  ) {}

  relevant(entries: Array<EntryOf<"conversation.finished">>): Promise<Set<number>> {
    return this.conversations.relevant(entries);
  }

  async handle(entry: EntryOf<"conversation.finished">): Promise<Rendered> {
    const rendered = await this.conversations.handle(entry);
    if (rendered !== "ignored") await this.cards.afterTurn(entry.id, entry.event.conversationId);
    return rendered;
  }

  reportFailure(entry: EntryOf<"conversation.finished">, code: string): Promise<void> {
    return this.conversations.reportFailure(entry, code);
  }
}
