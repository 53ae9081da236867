import type { Clock } from "../engine/api/runtime.js";
import { AsyncLocalStorage } from "node:async_hooks";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import { isLocale, type Locale } from "../i18n/index.js";

/** How long a person's Slack locale is trusted before it is asked again. */
const TTL_MS = 60 * 60_000;
/** A failed look-up is retried sooner: Slack may only have been unreachable. */
const FAILED_TTL_MS = 60_000;
/** The look-up may sit on a command's ack path (Slack's limit is 3 s): past this, the fallback answers. */
const WAIT_MS = 800;

// The language of the person a listener or renderer is working for. Carried by the async context
// rather than passed to every view: listeners read `ctx.locale`, and the work they schedule after
// their ack inherits the language of the request that scheduled it.
const current = new AsyncLocalStorage<Locale>();

/** Runs `fn` in `locale`: `currentLocale` answers it there and in everything `fn` starts. */
export const inLocale = <T>(locale: Locale, fn: () => T): T => current.run(locale, fn);

/** The language of the person being served, or `fallback` outside any request. */
export const currentLocale = (fallback: Locale): Locale => current.getStore() ?? fallback;

/**
 * Each Slack user's language (`users.info` with `include_locale`, fr or en), cached in memory with
 * a TTL; `CODEXPI_LOCALE` for a user whose locale is neither, unknown or unreadable. In memory on
 * purpose: a restart costs one look-up per person, and nothing else needs it stored.
 */
export class UserLocales {
  private readonly cache = new Map<string, { locale: Locale; until: number }>();
  private readonly pending = new Map<string, Promise<Locale>>();

  constructor(
    private readonly client: WebClient,
    private readonly fallback: Locale,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  /** The person's language; never throws, never waits much longer than `WAIT_MS`. */
  async of(userId: string | null | undefined): Promise<Locale> {
    if (!userId || !/^[UW][A-Z0-9]+$/.test(userId)) return this.fallback;
    const hit = this.cache.get(userId);
    if (hit && hit.until > this.clock.now()) return hit.locale;
    let lookup = this.pending.get(userId);
    if (!lookup) {
      lookup = this.lookUp(userId).finally(() => this.pending.delete(userId));
      this.pending.set(userId, lookup);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Locale>((resolve) => {
      timer = setTimeout(() => resolve(hit?.locale ?? this.fallback), WAIT_MS);
    });
    try {
      return await Promise.race([lookup, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async lookUp(userId: string): Promise<Locale> {
    try {
      const r = await this.client.users.info({ user: userId, include_locale: true });
      const base = (r.user as { locale?: string } | undefined)?.locale?.toLowerCase().split(/[-_]/)[0];
      const locale = isLocale(base) ? base : this.fallback;
      this.cache.set(userId, { locale, until: this.clock.now() + TTL_MS });
      return locale;
    } catch (err) {
      this.logger?.warn({ err, userId }, "could not read a Slack user's locale");
      this.cache.set(userId, { locale: this.fallback, until: this.clock.now() + FAILED_TTL_MS });
      return this.fallback;
    }
  }
}
