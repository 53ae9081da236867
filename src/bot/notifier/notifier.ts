import { EgressNotices } from "./egressNotices.js";
import { HandBackFiles } from "./handBackFiles.js";
import type { Config } from "../../config.js";
import type { Clock, Database, Wakeups } from "../../engine/api/runtime.js";
import type { EventKind, MalformedEntry, OutboxEntry } from "../../engine/api/model.js";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Locale } from "../../i18n/index.js";
import { classifySlackError } from "../slackErrors.js";
import type { PendingAcks } from "../pendingAcks.js";
import { ConversationMessages, REFRESH_KINDS } from "./conversationMessages.js";
import { Defer } from "./defer.js";
import { CoordinationMessages } from "./coordinationMessages.js";
import { DecisionReminders, type DecisionReminderSettings } from "./decisionReminder.js";
import { ApprovalMessages } from "./approvalMessages.js";
import { RunMessages } from "./runMessages.js";
import { LaneCards } from "./laneCards.js";
import { SteerMessages } from "./steerMessages.js";
import { OrchestrationMessages } from "./orchestrationMessages.js";
import { BudgetNotices } from "./budgetNotices.js";
import { renderersOf } from "./renderers.js";
import { MemoryCards } from "./memoryCards.js";
import type { Renderer, RendererMap } from "./renderer.js";
import { SlackPoster } from "./poster.js";
import { UserLocales } from "../userLocales.js";
import { ScheduleMessages } from "./scheduleMessages.js";
import { SlackAddresses } from "../store/addresses.js";
import { SlackPosts } from "../store/posts.js";
import { TurnProgress, type TurnProgressSettings } from "./turnProgress.js";
import type { RendererDeps } from "./rendererBase.js";
import type { EngineApi } from "../../engine/api/index.js";

/** What one drain did, for tests and metrics. */
export interface DrainResult {
  delivered: number;
  failed: number;
  deferred: number;
}

/** Options of the notifier; delays are injectable so tests can run an outage in seconds. */
export interface NotifierOptions {
  /** The engine, through its API: the outbox and what renderers read. */
  api: EngineApi;
  /** The bot's own tables (posts, addresses): the same database, never passed to the engine. */
  db: Database;
  client: WebClient;
  clock: Clock;
  logger: Logger;
  locale: Locale;
  /** `/codex ask` acknowledgements to remove once their root is posted (the Slack app's). */
  acks?: PendingAcks;
  /** Only the coordinator delivers, so that two bot instances never post twice. */
  isCoordinator?: () => Promise<boolean>;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** After this long of transient failures an event is given up (and counted as failed). */
  giveUpAfterMs?: number;
  pollMs?: number;
  /** Wake-ups of the outbox (PostgreSQL: NOTIFY from any process): a drain starts at once. */
  wakeups?: Wakeups;
  /** The progress renderers' settings (CODEXPI_STREAMING, CODEXPI_INTERIM_SECONDS, SLACK_TEAM_ID). */
  progress?: TurnProgressSettings;
  /** When a decision's DM goes (CODEXPI_DECISION_DM_SECONDS, CODEXPI_THREAD_ACTIVE_MINUTES). */
  decisionReminders?: DecisionReminderSettings;
  /** Where the files agents hand back wait (the data directory), and their limits; none: not uploaded. */
  files?: { dataDir: string; limits: Config["files"] };
}

// Without settings (tests of the notifier alone): no streams, interim posts once a minute.
const DEFAULT_PROGRESS: TurnProgressSettings = { streaming: "off", interimMs: 60_000 };
// The defaults of CODEXPI_DECISION_DM_SECONDS and CODEXPI_THREAD_ACTIVE_MINUTES.
const DEFAULT_DECISION_REMINDERS: DecisionReminderSettings = { afterMs: 60_000, activeMs: 10 * 60_000 };

/**
 * Drains the outbox into Slack, in order per thread. Honours 429 Retry-After (the whole notifier
 * waits), retries transient failures with exponential backoff, and records permanent ones
 * (status failed, last_error) so that health shows them. Survives restarts: an event is done
 * only after every Slack call it needs has succeeded, and posts are exactly-once (SlackPoster).
 */
export class Notifier {
  private readonly poster: SlackPoster;
  private readonly renderers: RendererMap;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private again = false;
  private offWake: (() => void) | null = null;
  /** Permanent failures since start, by Slack error code (health and metrics). */
  readonly failures = new Map<string, number>();

  constructor(private readonly o: NotifierOptions) {
    this.poster = new SlackPoster(new SlackPosts(o.db, o.clock), o.client);
    const deps: RendererDeps = {
      api: o.api,
      client: o.client,
      poster: this.poster,
      addresses: new SlackAddresses(o.db, o.clock),
      fallback: o.locale,
      clock: o.clock,
      locales: new UserLocales(o.client, o.locale, o.clock, o.logger),
      logger: o.logger,
    };
    this.renderers = renderersOf({
      conversations: new ConversationMessages({
        ...deps,
        logger: o.logger,
        acks: o.acks,
        doneDmAfterMs: o.progress?.doneDmAfterMs,
        turns: new TurnProgress(o.client, this.poster, o.clock, o.logger, o.progress ?? DEFAULT_PROGRESS),
      }),
      coordination: new CoordinationMessages(deps),
      decisionReminders: new DecisionReminders(deps, o.decisionReminders ?? DEFAULT_DECISION_REMINDERS),
      runs: new RunMessages(o.api, o.client, this.poster, deps.addresses, o.locale, o.clock, deps.locales),
      orchestrations: new OrchestrationMessages(deps),
      approvals: new ApprovalMessages(deps),
      steering: new SteerMessages(deps),
      lanes: new LaneCards(deps),
      budgets: new BudgetNotices(deps),
      handBack: new HandBackFiles(deps, o.files),
      egress: new EgressNotices(deps),
      schedules: new ScheduleMessages(deps),
      memory: new MemoryCards(deps),
    });
  }

  /**
   * Polls the outbox until stop(); a drain never overlaps the previous one. An outbox wake-up
   * starts the next drain at once (or right after the one under way), the poll is the net.
   */
  start(): void {
    this.stopped = false;
    let busy = false;
    const loop = async () => {
      if (this.stopped) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      busy = true;
      do {
        this.again = false;
        this.running = this.drainIfCoordinator().catch((err) =>
          this.o.logger.error({ err }, "notifier drain failed"),
        );
        await this.running;
      } while (this.again && !this.stopped);
      busy = false;
      if (!this.stopped) this.timer = setTimeout(loop, this.o.pollMs ?? 250);
    };
    this.offWake =
      this.o.wakeups?.on("outbox", () => {
        if (busy) this.again = true;
        else void loop();
      }) ?? null;
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.offWake?.();
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
    const { entries, malformed } = await this.o.api.events.pending(200);
    for (const m of malformed) result.failed += await this.rejectMalformed(m);
    const relevant = await this.skipIrrelevant(entries);
    const blocked = new Set<string>();
    for (const entry of relevant) {
      if (blocked.has(entry.orderingKey)) continue;
      blocked.add(entry.orderingKey); // later events of this thread wait for this one
      if (entry.nextAttemptAt > this.o.clock.now()) continue;
      const outcome = await this.deliver(entry);
      result[outcome] += 1;
      if (this.o.clock.now() < this.pausedUntil) break;
      // Let pending Slack requests be acked between two deliveries (SQLite calls are synchronous).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  }

  /** A row that does not parse can never be delivered: retrying it would only block its thread. */
  private async rejectMalformed(m: MalformedEntry): Promise<number> {
    this.o.logger.error(
      { outboxId: m.id, kind: m.kind, error: m.error },
      "malformed outbox event: marked failed",
    );
    this.failures.set("malformed_event", (this.failures.get("malformed_event") ?? 0) + 1);
    await this.o.api.events.failed(m.id, 1, `malformed: ${m.error}`, this.o.clock.now());
    return 1;
  }

  /**
   * Marks done, in one statement, the events with nothing to show in Slack: kinds the map
   * ignores, and those their renderer finds irrelevant (e.g. conversations not started from Slack).
   */
  private async skipIrrelevant(entries: OutboxEntry[]): Promise<OutboxEntry[]> {
    const byRenderer = new Map<Renderer<EventKind>, OutboxEntry[]>();
    for (const entry of entries) {
      const r = this.rendererOf(entry.event.kind);
      if (r) byRenderer.set(r, [...(byRenderer.get(r) ?? []), entry]);
    }
    const keepIds = new Set<number>();
    for (const [r, mine] of byRenderer) for (const id of await r.relevant(mine)) keepIds.add(id);
    await this.o.api.events.delivered(
      entries.filter((e) => !keepIds.has(e.id)).map((e) => e.id),
      this.o.clock.now(),
    );
    return entries.filter((e) => keepIds.has(e.id));
  }

  private rendererOf(kind: EventKind): Renderer<EventKind> | undefined {
    const r = this.renderers[kind];
    return r === "ignored" ? undefined : (r as Renderer<EventKind>);
  }

  private async deliver(entry: OutboxEntry): Promise<keyof DrainResult> {
    const log = this.o.logger.child({ outboxId: entry.id, kind: entry.event.kind });
    try {
      const renderer = this.rendererOf(entry.event.kind);
      // Consecutive state refreshes of one thread collapse into the one rendered now: those pending
      // before it reads the state, never one committed while it renders (its activity would not
      // show until the next event; a streamed turn's stream never opened, seen under load).
      const later = entry.event.kind.startsWith("conversation.")
        ? await this.o.api.events.laterPendingKinds(entry.orderingKey, entry.id)
        : [];
      const handled = renderer ? await renderer.handle(entry) : "ignored";
      const done = [entry.id];
      if (handled === "refreshed") {
        for (const n of later) {
          if (!REFRESH_KINDS.has(n.kind)) break;
          done.push(n.id);
        }
      }
      await this.o.api.events.delivered(done, this.o.clock.now());
      return "delivered";
    } catch (err) {
      if (err instanceof Defer) {
        await this.o.api.events.postpone(entry.id, this.o.clock.now() + err.ms);
        return "deferred";
      }
      return this.fail(entry, err, log);
    }
  }

  private async fail(entry: OutboxEntry, err: unknown, log: Logger): Promise<keyof DrainResult> {
    const now = this.o.clock.now();
    const failure = classifySlackError(err);
    if (failure.kind === "rate_limited") {
      this.pausedUntil = now + failure.retryAfterMs;
      log.warn({ retryAfterMs: failure.retryAfterMs }, "Slack rate limit: waiting");
      await this.o.api.events.postpone(entry.id, this.pausedUntil, { lastError: "ratelimited" });
      return "deferred";
    }
    if (failure.kind === "transient" && now - entry.createdAt < (this.o.giveUpAfterMs ?? 24 * 3600_000)) {
      const delay = Math.min(
        this.o.backoffMaxMs ?? 60_000,
        (this.o.backoffBaseMs ?? 1_000) * 2 ** Math.min(entry.attempts, 16),
      );
      log.warn(
        { detail: failure.detail, attempt: entry.attempts + 1, retryInMs: delay },
        "Slack call failed: will retry",
      );
      await this.o.api.events.postpone(entry.id, now + delay, {
        attempts: entry.attempts + 1,
        lastError: failure.detail,
      });
      return "deferred";
    }
    const code = failure.kind === "permanent" ? failure.code : `gave_up: ${failure.detail}`;
    log.error({ code }, "Slack delivery failed permanently");
    this.failures.set(code, (this.failures.get(code) ?? 0) + 1);
    await this.o.api.events.failed(entry.id, entry.attempts + 1, code, now);
    // Tell the person concerned where we can (a DM works even where the bot is not a member).
    await this.rendererOf(entry.event.kind)
      ?.reportFailure(entry, code)
      .catch((e) => log.warn({ err: e }, "could not report the failure"));
    return "failed";
  }
}
