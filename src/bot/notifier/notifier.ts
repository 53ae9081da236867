import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../../engine/clock.js";
import type { Database } from "../../engine/database.js";
import type { Locale } from "../../i18n/index.js";
import { classifySlackError } from "../slackErrors.js";
import { ConversationMessages, Defer, REFRESH_KINDS } from "./conversationMessages.js";
import { CoordinationMessages } from "./coordinationMessages.js";
import { RunMessages } from "./runMessages.js";
import { OrchestrationMessages } from "./orchestrationMessages.js";
import type { EventRenderer, OutboxRow } from "./renderer.js";
import { SlackPoster } from "./poster.js";

/** What one drain did, for tests and metrics. */
export interface DrainResult {
  delivered: number;
  failed: number;
  deferred: number;
}

/** Options of the notifier; delays are injectable so tests can run an outage in seconds. */
export interface NotifierOptions {
  db: Database;
  client: WebClient;
  clock: Clock;
  logger: Logger;
  locale: Locale;
  /** Only the coordinator delivers, so that two bot instances never post twice. */
  isCoordinator?: () => Promise<boolean>;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** After this long of transient failures an event is given up (and counted as failed). */
  giveUpAfterMs?: number;
  pollMs?: number;
}


/**
 * Drains the outbox into Slack, in order per thread. Honours 429 Retry-After (the whole notifier
 * waits), retries transient failures with exponential backoff, and records permanent ones
 * (status failed, last_error) so that health shows them. Survives restarts: an event is done
 * only after every Slack call it needs has succeeded, and posts are exactly-once (SlackPoster).
 */
export class Notifier {
  private readonly poster: SlackPoster;
  private readonly renderers: EventRenderer[];
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  /** Permanent failures since start, by Slack error code (health and metrics). */
  readonly failures = new Map<string, number>();

  constructor(private readonly o: NotifierOptions) {
    this.poster = new SlackPoster(o.db, o.client, o.clock);
    this.renderers = [
      new ConversationMessages(o.db, o.client, this.poster, o.clock, o.locale, o.logger),
      new CoordinationMessages(o.db, o.client, this.poster, o.locale),
      new RunMessages(o.db, o.client, this.poster, o.locale, o.clock),
      new OrchestrationMessages(o.db, o.client, this.poster, o.locale),
    ];
  }

  /** Polls the outbox until stop(); a drain never overlaps the previous one. */
  start(): void {
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.drainIfCoordinator().catch((err) => this.o.logger.error({ err }, "notifier drain failed"));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.o.pollMs ?? 250);
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async drainIfCoordinator(): Promise<DrainResult | null> {
    if (this.o.isCoordinator && !(await this.o.isCoordinator())) return null;
    return this.drainOnce();
  }

  /** Delivers every due event whose predecessors in its thread are delivered. */
  async drainOnce(): Promise<DrainResult> {
    const result: DrainResult = { delivered: 0, failed: 0, deferred: 0 };
    const now = this.o.clock.now();
    if (now < this.pausedUntil) return result;
    const rows = await this.o.db
      .selectFrom("outbox")
      .select(["id", "kind", "payload", "ordering_key", "attempts", "next_attempt_at", "created_at"])
      .where("status", "=", "pending")
      .orderBy("id")
      .limit(200)
      .execute();
    const relevant = await this.skipIrrelevant(rows);
    const blocked = new Set<string>();
    for (const row of relevant) {
      const key = row.ordering_key ?? `event:${row.id}`;
      if (blocked.has(key)) continue;
      blocked.add(key); // later events of this thread wait for this one
      if (row.next_attempt_at > this.o.clock.now()) continue;
      const outcome = await this.deliver(row);
      result[outcome] += 1;
      if (this.o.clock.now() < this.pausedUntil) break;
      // Let pending Slack requests be acked between two deliveries (SQLite calls are synchronous).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  }

  /**
   * Marks done, in one statement, the events with nothing to show in Slack: kinds no renderer
   * handles, and those its renderer finds irrelevant (e.g. conversations not started from Slack).
   */
  private async skipIrrelevant(rows: OutboxRow[]): Promise<OutboxRow[]> {
    const keepIds = new Set<number>();
    for (const r of this.renderers) {
      const mine = rows.filter((row) => r.kinds.has(row.kind));
      if (mine.length) for (const id of await r.relevant(mine)) keepIds.add(id);
    }
    const skip = rows.filter((row) => !keepIds.has(row.id)).map((row) => row.id);
    if (skip.length) await this.o.db.updateTable("outbox").set({ status: "done", done_at: this.o.clock.now() }).where("id", "in", skip).execute();
    return rows.filter((row) => keepIds.has(row.id));
  }

  private rendererOf(kind: string): EventRenderer | undefined {
    return this.renderers.find((r) => r.kinds.has(kind));
  }

  private async deliver(row: OutboxRow): Promise<keyof DrainResult> {
    const log = this.o.logger.child({ outboxId: row.id, kind: row.kind });
    try {
      const payload = JSON.parse(row.payload) as Record<string, unknown>;
      const renderer = this.rendererOf(row.kind);
      const handled = renderer ? await renderer.handle(row.id, row.kind, payload) : "ignored";
      // Consecutive state refreshes of one thread collapse into the one just rendered.
      const done = [row.id];
      if (handled === "refreshed" && row.ordering_key) {
        const next = await this.o.db
          .selectFrom("outbox")
          .select(["id", "kind"])
          .where("status", "=", "pending")
          .where("ordering_key", "=", row.ordering_key)
          .where("id", ">", row.id)
          .orderBy("id")
          .limit(50)
          .execute();
        for (const n of next) {
          if (!REFRESH_KINDS.has(n.kind)) break;
          done.push(n.id);
        }
      }
      await this.o.db.updateTable("outbox").set({ status: "done", done_at: this.o.clock.now(), last_error: null }).where("id", "in", done).execute();
      return "delivered";
    } catch (err) {
      if (err instanceof Defer) {
        await this.o.db.updateTable("outbox").set({ next_attempt_at: this.o.clock.now() + err.ms }).where("id", "=", row.id).execute();
        return "deferred";
      }
      return this.fail(row, err, log);
    }
  }

  private async fail(row: OutboxRow, err: unknown, log: Logger): Promise<keyof DrainResult> {
    const now = this.o.clock.now();
    const failure = classifySlackError(err);
    if (failure.kind === "rate_limited") {
      this.pausedUntil = now + failure.retryAfterMs;
      log.warn({ retryAfterMs: failure.retryAfterMs }, "Slack rate limit: waiting");
      await this.o.db.updateTable("outbox").set({ next_attempt_at: this.pausedUntil, last_error: "ratelimited" }).where("id", "=", row.id).execute();
      return "deferred";
    }
    if (failure.kind === "transient" && now - row.created_at < (this.o.giveUpAfterMs ?? 24 * 3600_000)) {
      const delay = Math.min(this.o.backoffMaxMs ?? 60_000, (this.o.backoffBaseMs ?? 1_000) * 2 ** Math.min(row.attempts, 16));
      log.warn({ detail: failure.detail, attempt: row.attempts + 1, retryInMs: delay }, "Slack call failed: will retry");
      await this.o.db
        .updateTable("outbox")
        .set({ attempts: row.attempts + 1, next_attempt_at: now + delay, last_error: failure.detail.slice(0, 500) })
        .where("id", "=", row.id)
        .execute();
      return "deferred";
    }
    const code = failure.kind === "permanent" ? failure.code : `gave_up: ${failure.detail}`;
    log.error({ code }, "Slack delivery failed permanently");
    this.failures.set(code, (this.failures.get(code) ?? 0) + 1);
    await this.o.db.updateTable("outbox").set({ status: "failed", attempts: row.attempts + 1, last_error: code.slice(0, 500), done_at: now }).where("id", "=", row.id).execute();
    // Tell the person concerned where we can (a DM works even where the bot is not a member).
    await this.rendererOf(row.kind)
      ?.reportFailure(row.id, JSON.parse(row.payload) as Record<string, unknown>, code)
      .catch((e) => log.warn({ err: e }, "could not report the failure"));
    return "failed";
  }
}
