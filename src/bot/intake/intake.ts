import type { Clock } from "../../engine/api/runtime.js";
import type { ReceiverEvent } from "@slack/bolt";
import type { Logger } from "pino";
import type { HandledEvents } from "../store/events.js";
import { type IntakeWork, withIntake } from "./context.js";
import { type IntakeKey, intakeKeyOf, type SignedHeaders } from "./keys.js";
import type { IntakeJournal, IntakeRequest, IntakeRow } from "../store/intakeJournal.js";
import { GroupCommit } from "../groupCommit.js";
import type { ProcessEvent, ReceiverLayer } from "../receiver/layer.js";

/** How the intake waits: the bound of an early reply, and how often put-aside requests are retried. */
export interface IntakeTiming {
  /** How long a reply whose thread is unknown may wait for it (default 10 minutes). */
  waitBoundMs: number;
  /** How soon a request put aside is tried again (default 2 s; doubled at each try, up to 30 s). */
  retryEveryMs: number;
}

const DEFAULT_TIMING: IntakeTiming = { waitBoundMs: 10 * 60_000, retryEveryMs: 2_000 };
const DONE_MEMORY_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 60_000;
const MAX_RETRY_DELAY_MS = 30_000;
/** Past this, the intake acks on the listener's behalf: Slack's limit is 3 s. */
const ACK_DEADLINE_MS = 2_500;
/** The most requests one journal commit takes. */
const MAX_BATCH = 100;
/** The longest work after an ack waits for other requests' acks (`acksSent`): it never starves. */
const ACKS_FIRST_MAX_WAIT_MS = 200;

/** What the intake counts of its journal commits (the bot's metrics). */
export interface IntakeCounters {
  /** One durable commit (one fsync) of the journal, holding `requests` requests. */
  committed(requests: number): void;
}

/**
 * Durable intake write → ack → work, a layer of the composed receiver (receiver/composed.ts) in
 * front of the app: each request the receiver parses is first recorded (with its raw payload) in
 * the intake journal (../store/intakeJournal.ts), and only then passed on, for Bolt to run, ack
 * and dispatch it.
 * A request already recorded (a Slack retry) is acked and dropped. The work a listener schedules
 * after its ack (`AfterAck`) takes the request's Slack key in the main database before it runs
 * (the de-duplication across bot instances and lives), and the intake row is marked done when
 * that work ends. A restarted bot replays what an earlier life recorded
 * and never finished, and on the shared journal any surviving instance adopts what a dead one
 * acked, through the same listeners, with an ack that goes nowhere.
 * Requests are recorded by group commit (../groupCommit.ts): those read in one turn of the event loop,
 * or while a commit is in flight, share one durable commit, and each is passed on (to be acked)
 * only once that commit has ended.
 */
export class Intake implements ReceiverLayer {
  private next: ProcessEvent | null = null;
  private readonly timing: IntakeTiming;
  private timer: NodeJS.Timeout | null = null;
  private retrying = false;
  private lastPrune = 0;
  private readonly commits: GroupCommit<IntakeRequest, number | null>;
  /** Requests received and not acked yet, and who waits for there to be none (`acksSent`). */
  private awaitingAck = 0;
  private ackWaiters: Array<() => void> = [];

  constructor(
    private readonly opts: {
      store: IntakeJournal;
      handled: HandledEvents;
      clock: Clock;
      logger: Logger;
      timing?: Partial<IntakeTiming>;
      counters?: IntakeCounters;
    },
  ) {
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.commits = new GroupCommit(async (requests) => {
      const ids = await opts.store.recordAll(requests);
      opts.counters?.committed(requests.length);
      return ids;
    }, MAX_BATCH);
  }

  /** Puts the intake in front of `next` (what follows it in the receiver, then the app). */
  wrap(next: ProcessEvent): ProcessEvent {
    this.next = next;
    return (event) => this.receive(event);
  }

  private async passOn(event: ReceiverEvent): Promise<void> {
    if (!this.next) throw new Error("the intake is not placed in a receiver");
    return await this.next(event);
  }

  /** Replays what an earlier process recorded and never finished, then retries put-aside requests. */
  async start(): Promise<void> {
    const { store, clock } = this.opts;
    // Before anything is recorded: on the shared journal this takes the instance's hold.
    const adopted = await store.maintain(clock.now());
    const rows = [...(await store.unfinished()), ...adopted];
    if (rows.length)
      this.opts.logger.info({ count: rows.length }, "replaying Slack requests acked before a restart");
    for (const row of rows) await this.consume(row, replayed(row.body), true);
    this.timer = setInterval(() => void this.retryDue(), this.timing.retryEveryMs);
    this.timer.unref();
  }

  /** Stops retrying (the store is closed by its owner once the work in flight has ended). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Resolves once no request received is waiting for its ack, or after `maxWaitMs`. The work
   * after an ack runs on the event loop the acks need: asked between two pieces of it, this lets
   * a burst of requests be journaled and acked first.
   */
  acksSent(maxWaitMs = ACKS_FIRST_MAX_WAIT_MS): Promise<void> {
    if (this.awaitingAck === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.ackWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Counts a request as waiting for its ack; the function returned uncounts it (once only). */
  private awaitAck(): () => void {
    this.awaitingAck++;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      if (--this.awaitingAck === 0) for (const wake of this.ackWaiters.splice(0)) wake();
    };
  }

  private async receive(event: ReceiverEvent): Promise<void> {
    const body = event.body as Record<string, unknown>;
    const key = intakeKeyOf(body, (event.customProperties ?? {}) as SignedHeaders);
    if (!key) return this.passOn(event);
    const acked = this.awaitAck();
    try {
      await this.journalAndConsume(key, body, {
        ...event,
        ack: async (response) => {
          try {
            await event.ack(response);
          } finally {
            acked();
          }
        },
      });
    } finally {
      acked();
    }
  }

  private async journalAndConsume(
    key: IntakeKey,
    body: Record<string, unknown>,
    event: ReceiverEvent,
  ): Promise<void> {
    const now = this.opts.clock.now();
    // Throws (the receiver answers 500, nothing acked) rather than ack what could not be kept.
    // Resolves once the commit holding it is durable, shared with the requests read meanwhile.
    const id = await this.commits.add({ key: key.key, kind: key.kind, body, receivedAt: now });
    if (id === null) {
      this.opts.logger.debug({ key: key.key }, "Slack request already received: acked and dropped");
      await event.ack();
      return;
    }
    const deadline = ackDeadline(event, this.opts.logger);
    try {
      await this.consume({ id, key: key.key, receivedAt: now }, deadline.event, false);
    } finally {
      deadline.clear();
    }
  }

  /**
   * Runs one request through the listeners. `replay`: an earlier consumer (this instance's earlier
   * life, or a dead instance) may have died half-way through its work, after taking its key: work
   * declared replay-safe (its engine writes are keyed by the request, see `currentRequest`) runs
   * again; other work is skipped, as consumed (at most once rather than twice).
   */
  private async consume(
    row: Pick<IntakeRow, "id" | "key" | "receivedAt">,
    event: ReceiverEvent,
    replay: boolean,
  ): Promise<void> {
    const { handled, clock, logger } = this.opts;
    let claimed: Promise<boolean> | null = null;
    let returned = false;
    let finished = false;
    const work: IntakeWork = {
      ...row,
      pending: 0,
      deferred: false,
      mayWait: clock.now() - row.receivedAt < this.timing.waitBoundMs,
      claim: async (replaySafe) => {
        claimed ??= handled.firstTime(row.key, clock.now());
        if (await claimed) return true;
        if (replay && replaySafe) {
          logger.info(
            { key: row.key },
            "Slack request replayed after its consumer died: its work runs again",
          );
          return true;
        }
        logger.debug({ key: row.key }, "Slack request consumed before: skipped");
        return false;
      },
      settle: () => {
        if (!returned || work.pending > 0 || finished) return;
        finished = true;
        void this.finish(work, claimed).catch((err) =>
          logger.error({ err, key: row.key }, "could not record a Slack request's outcome"),
        );
      },
    };
    try {
      await withIntake(work, () => this.passOn(event));
    } finally {
      returned = true;
      work.settle();
    }
  }

  private async finish(work: IntakeWork, claimed: Promise<boolean> | null): Promise<void> {
    const { store, handled, clock } = this.opts;
    if (!work.deferred) return store.done(work.id, clock.now());
    // Put aside: its key is given back, so that the next try may take it again.
    if (claimed && (await claimed)) await handled.release(work.key);
    await store.defer(work.id, clock.now(), this.timing.retryEveryMs, MAX_RETRY_DELAY_MS);
  }

  private async retryDue(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      const { store, clock } = this.opts;
      const now = clock.now();
      const adopted = await store.maintain(now);
      if (adopted.length)
        this.opts.logger.warn(
          { count: adopted.length },
          "adopting Slack requests a stopped bot instance acked",
        );
      for (const row of adopted) await this.consume(row, replayed(row.body), true);
      for (const row of await store.due(now)) await this.consume(row, replayed(row.body), false);
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await store.forgetDone(now - DONE_MEMORY_MS);
      }
    } catch (err) {
      this.opts.logger.error({ err }, "retrying Slack requests failed");
    } finally {
      this.retrying = false;
    }
  }
}

/**
 * The request with an ack that happens by `ACK_DEADLINE_MS` whatever the listener does. A few
 * listeners write before they ack (a modal's submission, to show the engine's refusal in the
 * form); with the main database locked by another process that write waits, and Slack must not:
 * the request is acked empty (the modal closes), the work goes on, a late ack is dropped.
 */
function ackDeadline(event: ReceiverEvent, logger: Logger): { event: ReceiverEvent; clear(): void } {
  let acked = false;
  const ack = event.ack;
  const timer = setTimeout(() => {
    acked = true;
    logger.warn("a listener had not acked in time: acked on its behalf");
    void ack().catch((err: unknown) => logger.warn({ err }, "could not ack on a listener's behalf"));
  }, ACK_DEADLINE_MS);
  return {
    event: {
      ...event,
      ack: async (response) => {
        if (acked) {
          if (response) logger.warn({ response }, "a late ack's answer was dropped");
          return;
        }
        acked = true;
        clearTimeout(timer);
        await ack(response);
      },
    },
    clear: () => clearTimeout(timer),
  };
}

/** A recorded request as Bolt's receiver would hand it over, with an ack that goes nowhere. */
function replayed(body: unknown): ReceiverEvent {
  return { body: body as ReceiverEvent["body"], ack: async () => undefined };
}
