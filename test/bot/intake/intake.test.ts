import path from "node:path";
import type { App } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { AfterAck } from "../../../src/bot/afterAck.js";
import { Intake } from "../../../src/bot/intake/intake.js";
import { IntakeStore } from "../../../src/bot/intake/store.js";
import { HandledEvents } from "../../../src/bot/store/events.js";
import { silentLogger } from "../../../src/logger.js";
import { tempDir, testEngine } from "../../support/engine.js";

type Received = Parameters<App["processEvent"]>[0];

const command = (trigger: string) => ({ command: "/codex", text: "status", trigger_id: trigger });
const settle = () => new Promise((r) => setTimeout(r, 50));

// The intake's order and its replay, whatever the receiver (HTTP or Socket Mode hand requests
// to `app.processEvent` alike): a stand-in app records what reaches it.
describe("the intake", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  const stores: IntakeStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) s.close();
    await env?.close();
  });

  function bot(file: string) {
    const store = new IntakeStore(file);
    stores.push(store);
    const work: string[] = [];
    const afterAck = new AfterAck(silentLogger);
    const listeners = {
      // Like a listener: ack, then the work after the ack.
      processEvent: async (e: Received) => {
        await e.ack();
        const body = e.body as { trigger_id?: string; type?: string };
        afterAck.run(async () => void work.push(body.trigger_id ?? body.type ?? "?"));
      },
    } as unknown as App;
    const intake = new Intake({
      store,
      handled: new HandledEvents(env.db),
      clock: env.clock,
      logger: silentLogger,
    });
    // What the receiver hands each request to: the intake in front of the app.
    const app = { processEvent: intake.wrap((e) => listeners.processEvent(e)) };
    return { store, app, intake, work, afterAck };
  }

  it("writes a request before its ack, acks and drops a retry, lets keyless requests through", async () => {
    env = await testEngine();
    const b = bot(path.join(tempDir(), "intake.db"));
    await b.intake.start();
    const seenAtAck: Array<string | undefined> = [];
    const receive = (body: Record<string, unknown>) =>
      b.app.processEvent({
        body,
        ack: async () =>
          void seenAtAck.push(b.store.counts().pending + b.store.counts().done ? "recorded" : undefined),
      } as Received);
    await receive(command("T1"));
    await receive(command("T1")); // Slack does not retry commands; a replayed intake key is dropped
    await receive({ type: "view_closed" }); // asks for no work: no intake row
    await b.afterAck.settled();
    await settle();
    expect(seenAtAck).toEqual(["recorded", "recorded", "recorded"]);
    expect(b.work).toEqual(["T1", "view_closed"]);
    expect(b.store.counts()).toEqual({ pending: 0, waiting: 0, done: 1 });
    b.intake.stop();
  });

  it("a restarted bot replays what was acked and not done, once; a key the main database holds is skipped", async () => {
    env = await testEngine();
    const file = path.join(tempDir(), "intake.db");
    // The first life records two commands and dies before their work (no processEvent at all).
    const first = new IntakeStore(file);
    expect(await first.record("cmd:T1", "command", command("T1"), env.clock.now())).not.toBeNull();
    expect(await first.record("cmd:T2", "command", command("T2"), env.clock.now())).not.toBeNull();
    first.close();
    // T2's work did reach the main database (another instance, or the moment before the kill).
    await new HandledEvents(env.db).firstTime("cmd:T2", env.clock.now());

    const second = bot(file);
    await second.intake.start();
    await second.afterAck.settled();
    await settle();
    expect(second.work).toEqual(["T1"]);
    expect(second.store.counts()).toEqual({ pending: 0, waiting: 0, done: 2 });
    second.intake.stop();
    second.store.close();

    // Positive control: a third life replays nothing.
    const third = bot(file);
    await third.intake.start();
    await third.afterAck.settled();
    await settle();
    expect(third.work).toEqual([]);
    third.intake.stop();
  });

  it("a second serve on the same data directory cannot open the intake", async () => {
    env = await testEngine();
    const file = path.join(tempDir(), "intake.db");
    new IntakeStore(file).close(); // the file exists already, as after a restart
    const owner = new IntakeStore(file);
    stores.push(owner);
    expect(() => new IntakeStore(file)).toThrow(/another codexpi serve/);
  });

  it("S-ACK-03: work after an ack waits while another request waits for its ack, and not past its bound", async () => {
    env = await testEngine();
    const store = new IntakeStore(path.join(tempDir(), "intake.db"));
    stores.push(store);
    const intake = new Intake({
      store,
      handled: new HandledEvents(env.db),
      clock: env.clock,
      logger: silentLogger,
    });
    const afterAck = new AfterAck(silentLogger, () => intake.acksSent());
    const work: string[] = [];
    const held: Array<() => void> = [];
    // "slow" acks only when released (a listener that writes before it acks); the others at once.
    const app = intake.wrap(async (e) => {
      const trigger = (e.body as { trigger_id: string }).trigger_id;
      if (trigger.startsWith("slow")) await new Promise<void>((r) => held.push(r));
      await e.ack();
      afterAck.run(async () => void work.push(trigger));
    });
    const receive = (trigger: string) =>
      app({ body: command(trigger), ack: async () => undefined } as unknown as Received);

    const slow = receive("slow1");
    await receive("fast1");
    await settle();
    expect(work).toEqual([]); // fast1's work waits for slow1's ack
    held.shift()?.();
    await slow;
    await afterAck.settled();
    expect(work).toEqual(["fast1", "slow1"]);

    // Bounded: a request that never acks holds the work back 200 ms at most.
    void receive("slow2");
    await receive("fast2");
    const started = Date.now();
    await afterAck.settled();
    expect(work).toEqual(["fast1", "slow1", "fast2"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(2_000);
    held.shift()?.();
    intake.stop();
  });
});
