import type { App, Receiver } from "@slack/bolt";
import type { ProcessEvent, ReceiverLayer } from "./layer.js";

/**
 * The one receiver the app is given (`new App({ receiver })`, Bolt's extension point). Its
 * transport is Bolt's Socket Mode receiver, or the HTTP one behind the signature and replay check
 * (http.ts); every request the transport parses then passes the layers in order, e.g. intake
 * (durable write, then ack, then work), in-flight count, ack redaction, before the app processes
 * it. Nothing of Bolt is patched: the transport is handed the front of the chain as the app.
 */
export class ComposedReceiver implements Receiver {
  constructor(
    private readonly transport: Receiver,
    private readonly layers: readonly ReceiverLayer[],
  ) {}

  init(app: App): void {
    const front = this.layers.reduceRight<ProcessEvent>(
      (next, layer) => layer.wrap(next),
      (event) => app.processEvent(event),
    );
    // Bolt's receivers use nothing of the app but `processEvent` (HTTPReceiver, SocketModeReceiver).
    const entry: Pick<App, "processEvent"> = { processEvent: front };
    this.transport.init(entry as App);
  }

  /** Starts the layers (the intake replays what an earlier life acked), then the transport. */
  async start(...args: unknown[]): Promise<unknown> {
    for (const layer of this.layers) await layer.start?.();
    return await this.transport.start(...args);
  }

  /** Stops the transport, then the layers, last first. */
  async stop(): Promise<unknown> {
    try {
      return await this.transport.stop();
    } finally {
      for (const layer of [...this.layers].reverse()) layer.stop?.();
    }
  }
}
