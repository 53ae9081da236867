import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { ThreadContext } from "../../engine/api/model.js";
import { type Locale, t } from "../../i18n/index.js";

/**
 * Tells the thread, in one short line, that its messages were not read and why (not a member of
 * the private channel, or Slack would not give them): the prompt runs without them. Never the
 * error itself. Best effort: where the bot cannot post either, the agent is still told.
 */
export async function tellUnread(
  client: WebClient,
  logger: Logger,
  locale: Locale,
  where: { channel: string; threadTs: string },
  context: ThreadContext | null,
): Promise<void> {
  if (!context?.unavailable) return;
  try {
    await client.chat.postMessage({
      channel: where.channel,
      thread_ts: where.threadTs,
      text: t(locale, `thread_context.${context.unavailable}`),
    });
  } catch (err) {
    logger.warn({ err, channel: where.channel }, "could not tell a thread that it was not read");
  }
}
