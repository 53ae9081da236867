import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { SlackFile } from "./stage.js";

/**
 * The files shared with one message, read again from Slack: for a prompt that runs later than its
 * message, after the project choice. `conversations.replies` on its thread (its own ts for a
 * top-level message), from and up to its ts: Slack puts the thread's root first whatever the
 * window, so that is two messages at most. None when Slack does not answer; the prompt runs
 * without them.
 */
export async function filesOfMessage(
  client: WebClient,
  logger: Logger,
  where: { channel: string; threadTs: string; ts: string },
): Promise<SlackFile[]> {
  const { channel, threadTs, ts } = where;
  try {
    const r = await client.conversations.replies({
      channel,
      ts: threadTs,
      oldest: ts,
      latest: ts,
      inclusive: true,
      limit: 2,
    });
    const message = (r.messages ?? []).find((m) => m.ts === ts) as { files?: SlackFile[] } | undefined;
    return message?.files ?? [];
  } catch (err) {
    logger.warn({ err, channel }, "could not read a message's files again: the prompt runs without them");
    return [];
  }
}
