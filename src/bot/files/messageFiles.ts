import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { SlackFile } from "./stage.js";

/**
 * The files shared with one message, read again from Slack (`conversations.replies` on that
 * message's own ts: Slack answers the message itself, first, whether it is a thread's root, a
 * reply or a top-level one): for a prompt that runs later than its message, after the project
 * choice. None when Slack does not answer; the prompt runs without them.
 */
export async function filesOfMessage(
  client: WebClient,
  logger: Logger,
  channel: string,
  ts: string,
): Promise<SlackFile[]> {
  try {
    const r = await client.conversations.replies({ channel, ts, limit: 1, inclusive: true, latest: ts });
    const message = (r.messages ?? []).find((m) => m.ts === ts) as { files?: SlackFile[] } | undefined;
    return message?.files ?? [];
  } catch (err) {
    logger.warn({ err, channel }, "could not read a message's files again: the prompt runs without them");
    return [];
  }
}
