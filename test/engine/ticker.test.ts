import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { COORDINATOR_LEASE, leaseHolder } from "../../src/engine/leases.js";
import { startTicker } from "../../src/engine/ticker.js";
import { testEngine } from "../support/engine.js";

// The ticker's stop gives the coordinator lease up for good: a tick that began before the stop
// (its lease taken at its start) ends first, or it would hold the lease again after the release,
// and another serve would wait out the lease's whole time to take over.
describe("the ticker's stop", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("waits for a tick under way before it releases the lease, so nobody holds it afterwards", async () => {
    env = await testEngine();
    const engine = env.engine;
    let stopAsked: () => void = () => {};
    const stopping = new Promise<void>((r) => {
      stopAsked = r;
    });
    let tickStarted: () => void = () => {};
    const started = new Promise<void>((r) => {
      tickStarted = r;
    });
    let released: () => void = () => {};
    const release = new Promise<void>((r) => {
      released = r;
    });
    // The seam: the tick reaches the engine once the stop was asked, and after the release if the
    // stop does not wait for it (within a second: a stop that waits is not waited for forever).
    const ticker = startTicker(
      {
        tick: async () => {
          tickStarted();
          await stopping;
          await Promise.race([release, new Promise((r) => setTimeout(r, 1_000))]);
          return engine.tick();
        },
        releaseLease: async () => {
          await engine.releaseLease();
          released();
        },
      },
      "* * * * * *",
      pino({ level: "silent" }),
    );
    await Promise.race([started, new Promise((_, no) => setTimeout(() => no(new Error("no tick")), 5_000))]);
    const stopped = ticker.stop();
    stopAsked();
    await stopped;
    expect(await leaseHolder(engine.db, engine.clock, COORDINATOR_LEASE)).toBeNull();
    // Control: the same tick run to its end holds the lease (what the stop has to give up).
    await engine.tick();
    expect(await leaseHolder(engine.db, engine.clock, COORDINATOR_LEASE)).not.toBeNull();
  });
});
