import type { ConversationView } from "../../engine/api/model.js";
import type { SlackOrigin } from "../store/addresses.js";
import type { RendererBase } from "./rendererBase.js";
import type { TurnOnSlack } from "./turnProgress.js";

/** A conversation with where it lives in Slack: its thread and its state message, once posted. */
export type SlackConversation = ConversationView & {
  now: number;
  /** The permalink of the waiting decision's question, once it is posted. */
  decisionLink: string | null;
  /** The permalink of the card of the approval the turn waits for, once it is posted. */
  approvalLink: string | null;
  channelId: string;
  /** How it was asked (`/codex ask`, a mention, a DM). */
  origin: SlackOrigin | null;
  threadTs: string | null;
  statusTs: string | null;
};

/**
 * Reads a conversation as its renderers show it: its state from the database (never the event's,
 * so late or repeated events cannot show stale states) with its Slack address and card links.
 */
export class ConversationSnapshots {
  /** Permalinks of decision questions and approval cards (a posted message's link never changes). */
  private readonly cardLinks = new Map<string, string>();

  constructor(private readonly base: RendererBase) {}

  /** The conversation's state with its Slack address (where it was asked, what the bot posted); null outside Slack. */
  async load(conversationId: string): Promise<SlackConversation | null> {
    const view = await this.base.api.conversations.view(conversationId);
    const address = await this.base.addresses.get("conversation", conversationId);
    if (!view || !address) return null;
    return {
      ...view,
      now: this.base.clock.now(),
      channelId: address.channel,
      threadTs: address.threadTs,
      statusTs: address.statusTs,
      origin: address.origin ?? null,
      decisionLink: view.decisionId ? await this.cardLink(`decision:${view.decisionId}`) : null,
      approvalLink: view.approvalId ? await this.cardLink(`approval:${view.approvalId}`) : null,
    };
  }

  /** The permalink of a card (a decision's question `decision:<id>`, an approval `approval:<id>`), once posted. */
  private async cardLink(key: string): Promise<string | null> {
    const known = this.cardLinks.get(key);
    if (known) return known;
    const card = await this.base.poster.posts.find(key);
    if (card?.status !== "posted" || !card.ts) return null;
    const link = await this.base.client.chat.getPermalink({ channel: card.channel, message_ts: card.ts });
    if (link.permalink) this.cardLinks.set(key, link.permalink);
    return link.permalink ?? null;
  }
}

/** Where a conversation's posts land: its channel and thread. */
export const placeOf = (outboxId: number, snap: SlackConversation) => ({
  outboxId,
  conversationId: snap.conversationId,
  channel: snap.channelId,
  threadTs: snap.threadTs,
});

/** A conversation's running turn, as the progress renderers need it. */
export const turnOf = (snap: SlackConversation): TurnOnSlack => ({
  conversationId: snap.conversationId,
  queueId: snap.queueId,
  status: snap.status,
  channel: snap.channelId,
  threadTs: snap.threadTs,
  userId: snap.userId,
  progress: snap.progress,
  startedAt: snap.startedAt,
});
