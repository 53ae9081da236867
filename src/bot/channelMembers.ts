import { WebClient } from "@slack/web-api";
import type { Config } from "../config.js";
import { webClientOptions } from "./webClientOptions.js";
import type { Logger } from "pino";
import type { EngineApi } from "../engine/api/index.js";
import type { Actor, ChannelMember } from "../engine/api/model.js";
import type { Clock } from "../engine/api/runtime.js";

/** How long a channel's member list is trusted: someone who leaves stops reading within this. */
const TTL_MS = 60_000;
/** A channel with more members than this is read in pages of it. */
const PAGE = 1000;

/**
 * Who belongs to the channels of projects visible to their members (`conversations.members`,
 * scopes `channels:read` and `groups:read`), cached briefly in memory. It only ever widens what a
 * person may READ; the engine decides, and prompting never depends on it. A channel Slack will
 * not list (the bot is not in it, a missing scope) counts as having no members: closed, not open.
 */
export class ChannelMembers {
  private readonly cache = new Map<string, { members: ReadonlySet<string>; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly api: EngineApi,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * The actor with the channels they belong to among those that open a project to their members;
   * `fromChannel`, where their request was written, counts without asking Slack.
   */
  async reader(actor: Actor, fromChannel?: string | null): Promise<Actor> {
    const open = await this.api.projects.channelsOpenToMembers();
    const channels: string[] = [];
    for (const channel of open)
      if (channel === fromChannel || (await this.membersOf(channel)).has(actor.userId))
        channels.push(channel);
    return { ...actor, channels };
  }

  /** Whether a person is a member of a channel (a schedule's, at its adding and at each firing). */
  async isMember(channel: string, userId: string): Promise<boolean> {
    return (await this.membersOf(channel)).has(userId);
  }

  private async membersOf(channel: string): Promise<ReadonlySet<string>> {
    const hit = this.cache.get(channel);
    if (hit && hit.until > this.clock.now()) return hit.members;
    const members = new Set<string>();
    try {
      let cursor: string | undefined;
      do {
        const page = await this.client.conversations.members({ channel, limit: PAGE, cursor });
        for (const m of page.members ?? []) members.add(m);
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
    } catch (err) {
      this.logger.warn({ err, channel }, "could not list a channel's members: nobody reads through it");
      members.clear();
    }
    this.cache.set(channel, { members, until: this.clock.now() + TTL_MS });
    return members;
  }
}

/**
 * The engine's seam for a schedule's channel (`channelMember`, asked at each firing), bound once
 * the engine exists (the members are read through its API). A client of its own: the first tick
 * runs before the Slack app starts.
 */
export function channelMemberSeam(config: Config, logger: Logger) {
  let members: ChannelMembers | undefined;
  const seam: ChannelMember = async (channel, userId) => {
    if (!members) throw new Error("channel membership asked before the engine was built");
    return members.isMember(channel, userId);
  };
  return {
    seam,
    bind(api: EngineApi, clock: Clock): void {
      members = new ChannelMembers(
        new WebClient(config.slack.botToken, webClientOptions(config)),
        api,
        clock,
        logger,
      );
    },
  };
}
