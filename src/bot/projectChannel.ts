import type { WebClient } from "@slack/web-api";
import { classifySlackError } from "./slackErrors.js";

/** Why a channel cannot become a project's channel; null when the bot is a member now. */
export type ChannelRefusal = { reason: "invite_first" } | { reason: "slack"; code: string };

/**
 * Makes the bot a member of a project's channel, so that replies in its threads reach it
 * (`message.channels` delivers only channels the bot has joined): a public channel is joined
 * (`conversations.join`, scope `channels:join`), a private one must already have invited the bot
 * (a bot cannot join it by itself). Any Slack error refuses with Slack's own code.
 */
export async function joinProjectChannel(client: WebClient, channel: string): Promise<ChannelRefusal | null> {
  try {
    const info = await client.conversations.info({ channel });
    const c = info.channel;
    if (c?.is_member || c?.is_im) return null;
    if (c?.is_private || c?.is_group || c?.is_mpim) return { reason: "invite_first" };
    await client.conversations.join({ channel });
    return null;
  } catch (err) {
    const failure = classifySlackError(err);
    return { reason: "slack", code: failure.kind === "permanent" ? failure.code : "unreachable" };
  }
}
