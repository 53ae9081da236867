import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../../engine/api/runtime.js";

/** How long what Slack says of a channel is trusted: a bot removed from it stops reading within this. */
const TTL_MS = 60_000;

/** Whether the bot may read a channel's threads, with its name and topic when it may. */
export type ChannelAccess =
  | { readable: true; name: string | null; topic: string | null }
  | { readable: false; reason: "not_member" | "unreadable" };

interface SlackChannel {
  name?: string;
  is_private?: boolean;
  is_group?: boolean;
  is_mpim?: boolean;
  is_im?: boolean;
  is_member?: boolean;
  topic?: { value?: string };
}

/**
 * What the bot may read where (`conversations.info`, scopes `channels:read`, `groups:read`): a
 * DM with it, a public channel, and a private channel or group DM only when it is a member. A
 * channel Slack will not describe is not read: closed, not open.
 */
export class ChannelAccessCheck {
  private readonly cache = new Map<string, { access: ChannelAccess; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async of(channel: string): Promise<ChannelAccess> {
    // A DM's messages reach the bot because it is one of the two: nothing to ask.
    if (channel.startsWith("D")) return { readable: true, name: null, topic: null };
    const hit = this.cache.get(channel);
    if (hit && hit.until > this.clock.now()) return hit.access;
    const access = await this.lookUp(channel);
    this.cache.set(channel, { access, until: this.clock.now() + TTL_MS });
    return access;
  }

  private async lookUp(channel: string): Promise<ChannelAccess> {
    try {
      const r = await this.client.conversations.info({ channel });
      const c = (r.channel ?? {}) as SlackChannel;
      if (c.is_im) return { readable: true, name: null, topic: null };
      const closed = c.is_private || c.is_group || c.is_mpim;
      if (closed && c.is_member !== true) return { readable: false, reason: "not_member" };
      return { readable: true, name: c.name ?? null, topic: c.topic?.value || null };
    } catch (err) {
      this.logger.warn({ err, channel }, "could not describe a channel: its thread is not read");
      return { readable: false, reason: "unreadable" };
    }
  }
}
