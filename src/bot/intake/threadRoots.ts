import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import { POST_METADATA_TYPE, type SlackPosts } from "../store/posts.js";

/**
 * Resolves a thread root the bot posted but whose ts it never recorded (Slack's answer to the
 * post was lost), from Slack itself: the root carries codexpi's post key in its metadata, and the
 * post's intent is in `slack_posts`. Recording the ts there is what the notifier's own
 * reconciliation would do on its next try; doing it now lets the waiting reply match sooner (the
 * notifier then records the thread's address without posting again). True when it recorded one.
 */
export async function resolveRootFromSlack(opts: {
  client: WebClient;
  posts: SlackPosts;
  channel: string;
  threadTs: string;
  logger: Logger;
}): Promise<boolean> {
  const { client, posts, channel, threadTs, logger } = opts;
  try {
    const res = await client.conversations.replies({
      channel,
      ts: threadTs,
      limit: 1,
      include_all_metadata: true,
    });
    const root = (res.messages ?? []).find((m) => m.ts === threadTs) as
      | { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }
      | undefined;
    const key = root?.metadata?.event_type === POST_METADATA_TYPE ? root.metadata.event_payload?.key : null;
    if (typeof key !== "string") return false;
    const intent = await posts.find(key);
    if (!intent || intent.ts || intent.channel !== channel || intent.threadTs !== null) return false;
    await posts.markPosted(key, threadTs);
    logger.info({ key, channel, threadTs }, "a thread root's ts resolved from Slack");
    return true;
  } catch (err) {
    logger.debug({ err }, "could not resolve a thread root from Slack");
    return false;
  }
}
