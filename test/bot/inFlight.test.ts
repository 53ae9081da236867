import type { App, ReceiverEvent } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { InFlight } from "../../src/bot/receiver/inFlight.js";

/** A stand-in for Bolt's App whose processing of each request ends when the test says so. */
function fakeApp() {
  const finish: Array<() => void> = [];
  const app = {
    processEvent: () => new Promise<void>((resolve) => finish.push(resolve)),
  } as unknown as App;
  return { app, finish };
}

/** What the receiver hands each request to: the in-flight layer in front of the app. */
const tracked = (inFlight: InFlight, app: App) => ({
  processEvent: inFlight.wrap((e) => app.processEvent(e)),
});

const event = {} as ReceiverEvent;
const tick = () => new Promise((r) => setImmediate(r));

describe("requests in flight", () => {
  it("settled() waits for every request Bolt is processing, those arriving meanwhile included", async () => {
    const { app: listeners, finish } = fakeApp();
    const inFlight = new InFlight();
    const app = tracked(inFlight, listeners);
    void app.processEvent(event);
    let done = false;
    const settled = inFlight.settled().then(() => {
      done = true;
    });
    await tick();
    expect([done, inFlight.idle]).toEqual([false, false]);
    void app.processEvent(event); // arrives while the first is processed
    finish.shift()!();
    await tick();
    expect(done).toBe(false);
    finish.shift()!();
    await settled;
    expect([done, inFlight.idle]).toEqual([true, true]);
  });

  it("settled() resolves at once when nothing is in flight", async () => {
    const inFlight = new InFlight();
    tracked(inFlight, fakeApp().app);
    await inFlight.settled();
    expect(inFlight.idle).toBe(true);
  });
});
