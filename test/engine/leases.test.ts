import os from "node:os";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLease, COORDINATOR_LEASE, processOwnerId, provablyDead } from "../../src/engine/leases.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { Engine } from "../../src/engine/engine.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
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

describe("coordinator lease takeover", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  /** A process of this host that has ended: its pid and start time prove it gone. */
  async function deadOwner(host = os.hostname()): Promise<string> {
    const child = spawn("sleep", ["30"]);
    const pid = child.pid as number;
    const start = processStartTime(pid);
    child.kill("SIGKILL");
    await once(child, "exit");
    return `${host}:${pid}:${start}:abcdef`;
  }

  it("a lease whose holder is provably dead on this host is replaced at once", async () => {
    env = await testEngine({ leaseTtlMs: 30_000 });
    const dead = await deadOwner();
    expect(provablyDead(dead)).toBe(true);
    await acquireLease(env.db, env.clock, COORDINATOR_LEASE, dead, 30_000);
    expect((await env.engine.tick()).state).toBe("processed");
    expect(await env.engine.holdsLease()).toBe(true);
  });

  it("a live holder, another host's holder and an id of another shape keep their lease until it expires", async () => {
    env = await testEngine({ leaseTtlMs: 30_000 });
    const live = processOwnerId();
    expect(provablyDead(live)).toBe(false);
    for (const owner of [live, await deadOwner("another-host"), "blue"]) {
      await env.db.deleteFrom("leases").execute();
      await acquireLease(env.db, env.clock, COORDINATOR_LEASE, owner, 30_000);
      expect(await env.engine.tick()).toEqual({ state: "standby" });
    }
    env.clock.advance(30_001);
    expect((await env.engine.tick()).state).toBe("processed");
  });

  it("the default owner id carries host, pid and process start time", () => {
    const [host, pid, start] = processOwnerId().split(":");
    expect(host).toBe(os.hostname());
    expect(pid).toBe(String(process.pid));
    expect(start).toBe(processStartTime(process.pid));
  });
});
