import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../../engine/api/runtime.js";

/** How long a person's display name is trusted before it is asked again. */
const TTL_MS = 60 * 60_000;
/** A failed look-up is retried sooner: Slack may only have been unreachable. */
const FAILED_TTL_MS = 60_000;

interface SlackUser {
  name?: string;
  real_name?: string;
  profile?: { display_name?: string; real_name?: string };
}

/**
 * The names people show in Slack (`users.info`, scope `users:read`), cached in memory with a TTL:
 * quoting a thread asks Slack once per author, not once per message. A name Slack will not give
 * is the user id.
 */
export class DisplayNames {
  private readonly cache = new Map<string, { name: string; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The display names of these users (each asked at most once). */
  async of(userIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(userIds)) names.set(id, await this.one(id));
    return names;
  }

  private async one(userId: string): Promise<string> {
    const hit = this.cache.get(userId);
    if (hit && hit.until > this.clock.now()) return hit.name;
    try {
      const r = await this.client.users.info({ user: userId });
      const u = (r.user ?? {}) as SlackUser;
      const name = u.profile?.display_name || u.profile?.real_name || u.real_name || u.name || userId;
      this.cache.set(userId, { name, until: this.clock.now() + TTL_MS });
      return name;
    } catch (err) {
      this.logger.warn({ err, userId }, "could not read a Slack user's name");
      this.cache.set(userId, { name: userId, until: this.clock.now() + FAILED_TTL_MS });
      return userId;
    }
  }
}
