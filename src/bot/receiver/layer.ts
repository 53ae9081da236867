import type { ReceiverEvent } from "@slack/bolt";

/** What processes one request: the app's `processEvent`, or a layer in front of it. */
export type ProcessEvent = (event: ReceiverEvent) => Promise<void>;

/**
 * One layer of the composed receiver (composed.ts): it sees every request before the next layer,
 * and the app after the last one, do. `start` runs before the transport listens, `stop` after it
 * has stopped.
 */
export interface ReceiverLayer {
  wrap(next: ProcessEvent): ProcessEvent;
  start?(): Promise<void>;
  stop?(): void;
}
