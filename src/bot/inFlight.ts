import type { App, ReceiverEvent } from "@slack/bolt";

/**
 * The requests Bolt is still processing. Bolt acks an event before its middleware runs, so a
 * request answered 200 may not have reached its listener yet: `settled()` covers that gap.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  /** Wraps `app.processEvent` (every receiver hands each request to it) to count what is running. */
  track(app: App): void {
    const processEvent = app.processEvent.bind(app);
    app.processEvent = (event: ReceiverEvent) => {
      const work = processEvent(event);
      this.pending.add(work);
      const done = () => this.pending.delete(work);
      work.then(done, done);
      return work;
    };
  }

  /** Whether no request is being processed. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /** Resolves once no request is being processed (those arriving meanwhile included). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
