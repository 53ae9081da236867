import { AsyncResource } from "node:async_hooks";
import type { Logger } from "pino";
import { currentIntake, withIntake } from "./intake/context.js";

/**
 * Work a listener does after it has acked, run one item at a time with a turn of the event loop
 * between items. SQLite calls are synchronous: run inline, the work of a burst of commands would
 * hold back the acks of the commands behind them (Slack's 3 s limit); queued here, every pending
 * request is read and acked before the next item runs.
 */
export class AfterAck {
  private readonly queue: Array<() => Promise<void>> = [];
  private running = false;
  private idle: Array<() => void> = [];

  /**
   * @param acksFirst resolves when the requests waiting for their ack have it (see
   *   Intake.acksSent): asked before each item, so that a burst's acks do not wait behind its work.
   */
  constructor(
    private readonly logger: Logger,
    private readonly acksFirst: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /**
   * Schedules `work`; its errors are logged (a listener has nobody left to throw to). Work done for
   * a request that came through the intake first takes the request's key in the main database
   * (skipped when another instance or an earlier life consumed it), runs as serving that request,
   * and lets the intake mark it consumed when it ends. `replaySafe`: running it a second time for
   * the same request changes nothing (its engine writes carry `currentRequest()`'s key), so a
   * request replayed after its consumer died half-way runs it again rather than lose it.
   */
  run(work: () => Promise<void>, opts: { replaySafe?: boolean } = {}): void {
    const intake = currentIntake();
    if (intake) intake.pending++;
    const item = !intake
      ? work
      : () =>
          withIntake(intake, async () => {
            try {
              if (await intake.claim(opts.replaySafe ?? false)) await work();
            } finally {
              intake.pending--;
              intake.settle();
            }
          });
    // Run in the async context of the request that scheduled it (its person's language, …), not
    // in that of the request whose work happened to start the loop (S-LANG-06).
    this.queue.push(AsyncResource.bind(item));
    // The loop runs outside any request: its continuations must not pass for the first one's.
    if (!this.running) withIntake(undefined, () => void this.drain());
  }

  /** Whether work is scheduled or running. */
  get busy(): boolean {
    return this.running;
  }

  /** Resolves once everything scheduled so far has run (shutdown, tests). */
  async settled(): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length) {
      // Yield first: new requests waiting on the socket are read and acked before this item.
      await new Promise((resolve) => setImmediate(resolve));
      await this.acksFirst();
      const work = this.queue.shift() as () => Promise<void>;
      await work().catch((err) => this.logger.error({ err }, "work after ack failed"));
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
