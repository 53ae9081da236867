import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine/engine.js";
import { fixedHostLoad } from "../../src/engine/agents/hostLoad.js";
import { testEngine, recordingSpawner } from "../support/engine.js";

describe("coordinator lease", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("S-Q-04: while one coordinator holds the lease another answers standby; once released it processes", async () => {
    env = await testEngine({ owner: "blue" });
    const green = new Engine({
      config: env.config,
      db: env.db,
      clock: env.clock,
      host: fixedHostLoad(),
      spawner: recordingSpawner(),
      owner: "green",
    });
    const first = await env.engine.tick();
    expect(first.state).toBe("processed");
    expect(await green.tick()).toEqual({ state: "standby" });
    await env.engine.releaseLease();
    expect((await green.tick()).state).toBe("processed");
    // and now blue is the one standing by
    expect(await env.engine.tick()).toEqual({ state: "standby" });
  });

  it("an expired lease is taken over by the other coordinator", async () => {
    env = await testEngine({ owner: "blue", leaseTtlMs: 10_000 });
    const green = new Engine({
      config: env.config,
      db: env.db,
      clock: env.clock,
      host: fixedHostLoad(),
      spawner: recordingSpawner(),
      owner: "green",
    });
    await env.engine.tick();
    expect(await green.tick()).toEqual({ state: "standby" });
    env.clock.advance(10_001);
    expect((await green.tick()).state).toBe("processed");
  });
});
