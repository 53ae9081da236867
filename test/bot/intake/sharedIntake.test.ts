import os from "node:os";
import type { App } from "@slack/bolt";
import { afterEach, describe, expect, it } from "vitest";
import { AfterAck } from "../../../src/bot/afterAck.js";
import { Intake } from "../../../src/bot/intake/intake.js";
import { SharedIntakeStore } from "../../../src/bot/store/sharedIntake.js";
import { HandledEvents } from "../../../src/bot/store/events.js";
import { processOwnerId } from "../../../src/engine/leases.js";
import { silentLogger } from "../../../src/logger.js";
import { testEngine } from "../../support/engine.js";

type Received = Parameters<App["processEvent"]>[0];

// The shared intake journal (PostgreSQL's; run on both dialects, it only needs the main
// database): what one bot instance acked and never consumed is adopted by a survivor, once.

const HOLD_MS = 10_000;
/** An instance on another machine: never provably dead, only its hold's expiry counts. */
const remote = (n: number) => `elsewhere.example:${4000 + n}:123456:a${n}`;
/** An instance of this machine whose process is gone (no such pid). */
const deadHere = `${os.hostname()}:999999:1:dead00`;
const command = (trigger: string) => ({ command: "/codex", text: "status", trigger_id: trigger });
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("the shared intake journal", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => {
    await env?.close();
  });
  const store = (owner: string) => new SharedIntakeStore(env.db, env.clock, owner, HOLD_MS);

  it("a Slack retry reaching another instance is dropped there; put-aside requests stay their instance's", async () => {
    env = await testEngine();
    const a = store(remote(1));
    const b = store(remote(2));
    await a.maintain(env.clock.now());
    await b.maintain(env.clock.now());
    const id = await a.record("Ev1", "event", { type: "event_callback" }, env.clock.now());
    expect(id).not.toBeNull();
    expect(await b.record("Ev1", "event", { type: "event_callback" }, env.clock.now())).toBeNull();
    await a.defer(id as number, env.clock.now(), 1_000, 30_000);
    env.clock.advance(1_001);
    expect((await a.due(env.clock.now())).map((r) => r.key)).toEqual(["Ev1"]);
    expect(await b.due(env.clock.now())).toEqual([]);
    // Signatures are shared too: the second instance refuses a replay the first accepted.
    expect(await a.firstSignatures(["sig:1:v0=aa", "sig:1:v0=aa"], env.clock.now())).toEqual([true, false]);
    expect(await b.firstSignatures(["sig:1:v0=aa", "sig:2:v0=bb"], env.clock.now())).toEqual([false, true]);
  });

  it("a survivor adopts an instance's unconsumed requests once its hold has expired, and two survivors never both", async () => {
    env = await testEngine();
    const gone = store(remote(1));
    await gone.maintain(env.clock.now());
    const p1 = (await gone.record("Ev-p1", "event", { n: 1 }, env.clock.now())) as number;
    const w1 = (await gone.record("Ev-w1", "event", { n: 2 }, env.clock.now())) as number;
    const d1 = (await gone.record("Ev-d1", "event", { n: 3 }, env.clock.now())) as number;
    await gone.defer(w1, env.clock.now(), 1_000, 30_000);
    await gone.done(d1, env.clock.now());
    expect(p1).toBeGreaterThan(0);

    const b = store(remote(2));
    const c = store(remote(3));
    // Control: while the hold is alive, nothing is taken.
    env.clock.advance(HOLD_MS - 1_000);
    expect(await b.maintain(env.clock.now())).toEqual([]);
    await c.maintain(env.clock.now());

    env.clock.advance(2_000);
    const [byB, byC] = await Promise.all([b.maintain(env.clock.now()), c.maintain(env.clock.now())]);
    const adopted = [...byB, ...byC];
    expect(adopted.map((r) => r.key)).toEqual(["Ev-p1"]);
    expect(adopted[0]?.body).toEqual({ n: 1 });
    const owner = byB.length ? remote(2) : remote(3);
    const rows = await env.db
      .selectFrom("intake_requests")
      .select(["key", "owner", "status"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { key: "Ev-p1", owner, status: "pending" },
      { key: "Ev-w1", owner, status: "waiting" },
      { key: "Ev-d1", owner: remote(1), status: "done" },
    ]);
    // The put-aside one comes back through the adopter's due list, not the other's.
    const adopter = byB.length ? b : c;
    const other = byB.length ? c : b;
    expect((await adopter.due(env.clock.now())).map((r) => r.key)).toEqual(["Ev-w1"]);
    expect(await other.due(env.clock.now())).toEqual([]);
    // Nothing left to adopt.
    env.clock.advance(HOLD_MS * 2);
    await adopter.maintain(env.clock.now());
    expect(await other.maintain(env.clock.now())).toEqual([]);
  });

  it("an instance of this machine whose process is gone is adopted at once; a live one is not", async () => {
    env = await testEngine();
    const live = store(processOwnerId());
    const dead = store(deadHere);
    // Each takes its hold before it records (a live one's maintain would adopt a dead one's rows).
    await live.maintain(env.clock.now());
    await dead.maintain(env.clock.now());
    await dead.record("Ev-dead", "event", {}, env.clock.now());
    await live.record("Ev-live", "event", {}, env.clock.now());
    const survivor = store(remote(9));
    const adopted = await survivor.maintain(env.clock.now());
    expect(adopted.map((r) => r.key)).toEqual(["Ev-dead"]);
  });

  it("a survivor consumes what the dead instance acked: work it never began runs, replay-safe work it began runs again, other begun work is skipped", async () => {
    env = await testEngine();
    const gone = store(remote(1));
    await gone.maintain(env.clock.now());
    const now = env.clock.now();
    await gone.record("cmd:fresh", "command", command("fresh"), now);
    await gone.record("cmd:safe-begun", "command", command("safe-begun"), now);
    await gone.record("cmd:other-begun", "command", command("other-begun"), now);
    // The dead instance had taken these two keys in the main database, then died in their work.
    const handled = new HandledEvents(env.db);
    await handled.firstTime("cmd:safe-begun", now);
    await handled.firstTime("cmd:other-begun", now);

    const work: string[] = [];
    const afterAck = new AfterAck(silentLogger);
    const listeners = {
      processEvent: async (e: Received) => {
        await e.ack();
        const trigger = (e.body as { trigger_id: string }).trigger_id;
        afterAck.run(async () => void work.push(trigger), { replaySafe: trigger.startsWith("safe") });
      },
    } as unknown as App;
    const survivorStore = store(remote(2));
    const intake = new Intake({ store: survivorStore, handled, clock: env.clock, logger: silentLogger });
    // What the receiver hands each request to: the intake in front of the app.
    const app = { processEvent: intake.wrap((e) => listeners.processEvent(e)) };
    env.clock.advance(HOLD_MS + 1);
    await intake.start();
    await afterAck.settled();
    await settle();
    intake.stop();
    expect(work).toEqual(["fresh", "safe-begun"]);
    const open = await env.db
      .selectFrom("intake_requests")
      .select("key")
      .where("status", "<>", "done")
      .execute();
    expect(open).toEqual([]);
    // Positive control: the survivor's own new request is consumed as usual.
    await app.processEvent({ body: command("mine"), ack: async () => undefined } as Received);
    await afterAck.settled();
    await settle();
    expect(work).toEqual(["fresh", "safe-begun", "mine"]);
  });
});
