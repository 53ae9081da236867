import { ErrorCode, type WebClient } from "@slack/web-api";
import { POST_METADATA_TYPE, type PostPurpose, type SlackPosts } from "../store/posts.js";

/** One message to post exactly once. */
export interface PostRequest {
  key: string;
  outboxId: number;
  conversationId: string | null;
  purpose: PostPurpose;
  channel: string;
  threadTs: string | null;
  text: string;
  blocks?: unknown[];
}

/**
 * Posts messages exactly once across crashes. chat.postMessage has no idempotency key, so the
 * intent is recorded first, the post carries the key in its metadata, and the ts is recorded
 * right after. A post whose intent exists without a ts has an unknown outcome (we died between
 * Slack's answer and our write): the channel or thread is searched for the key before posting again.
 */
export class SlackPoster {
  constructor(
    /** The record of every post (the bot's own table). */
    readonly posts: SlackPosts,
    private readonly client: WebClient,
  ) {}

  /** Posts (or finds the earlier post of) a message; returns its ts. Slack errors propagate. */
  async postOnce(req: PostRequest): Promise<string> {
    const existing = await this.posts.find(req.key);
    if (existing?.status === "posted" && existing.ts) return existing.ts;
    if (existing?.status === "sending") {
      const found = await this.findPosted(req.key, existing.channel, existing.threadTs);
      if (found) {
        await this.posts.markPosted(req.key, found);
        return found;
      }
    } else {
      await this.posts.intend({
        key: req.key,
        outboxId: req.outboxId,
        conversationId: req.conversationId,
        purpose: req.purpose,
        channel: req.channel,
        threadTs: req.threadTs,
      });
    }
    let res: Awaited<ReturnType<WebClient["chat"]["postMessage"]>>;
    try {
      res = await this.client.chat.postMessage({
        channel: req.channel,
        text: req.text,
        ...(req.blocks ? { blocks: req.blocks } : {}),
        ...(req.threadTs ? { thread_ts: req.threadTs } : {}),
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: POST_METADATA_TYPE, event_payload: { key: req.key } },
      });
    } catch (err) {
      // Slack answered that it did not post (an error or a rate limit): the outcome is known, so the
      // next attempt need not search for it. A 5xx or a lost connection stays unknown.
      const code = (err as { code?: string }).code;
      if (code === ErrorCode.PlatformError || code === ErrorCode.RateLimitedError) {
        await this.posts.forgetIntent(req.key);
      }
      throw err;
    }
    const ts = res.ts as string;
    await this.posts.markPosted(req.key, ts);
    return ts;
  }

  /** The ts of an earlier post, if it is known. */
  async postedTs(key: string): Promise<string | null> {
    const row = await this.posts.find(key);
    return row?.status === "posted" ? row.ts : null;
  }

  /** Looks for a message carrying `key` in its metadata, in the thread or the channel's recent history. */
  private async findPosted(key: string, channel: string, threadTs: string | null): Promise<string | null> {
    const matches = (m: {
      ts?: string;
      metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
    }) => m.metadata?.event_type === POST_METADATA_TYPE && m.metadata.event_payload?.key === key;
    const res = threadTs
      ? await this.client.conversations.replies({
          channel,
          ts: threadTs,
          include_all_metadata: true,
          limit: 200,
        })
      : // Recent history only: the intent was recorded moments before the post. No `oldest`: our
        // clock and Slack's need not agree.
        await this.client.conversations.history({ channel, include_all_metadata: true, limit: 200 });
    const found = (res.messages ?? []).find((m) => matches(m));
    return found?.ts ?? null;
  }
}
