import type { ReceiverEvent } from "@slack/bolt";
import type { ProcessEvent, ReceiverLayer } from "./layer.js";

/**
 * The requests Bolt is still processing. Bolt acks an event before its middleware runs, so a
 * request answered 200 may not have reached its listener yet: `settled()` covers that gap.
 */
export class InFlight implements ReceiverLayer {
  private readonly pending = new Set<Promise<unknown>>();

  /** Counts each request from the moment it reaches this layer until the next ones are done with it. */
  wrap(next: ProcessEvent): ProcessEvent {
    return (event: ReceiverEvent) => {
      const work = next(event);
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
