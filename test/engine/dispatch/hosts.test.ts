import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { claimSlots } from "../../../src/engine/dispatch/dispatcher.js";
import { fixedHostLoad } from "../../../src/engine/system/hostLoad.js";
import {
  heartbeatHost,
  interruptLostHosts,
  registerHost,
  releaseHost,
} from "../../../src/engine/dispatch/hosts.js";
import { moveProject } from "../../../src/engine/projects/placement.js";
import { updateGlobalPolicy } from "../../../src/engine/projects/policies.js";
import { CLI_ACTOR, updateProject } from "../../../src/engine/projects/index.js";
import { stopUseCase } from "../../../src/engine/conversations/stop.js";
import { silentLogger } from "../../../src/logger.js";
import { testEngine } from "../../support/engine.js";

const TTL = 30_000;
const readings = { loadPercent: 10, memoryPercent: 20, running: 0 };

describe("worker hosts: registration, placement, claims and host loss", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  /** A project placed on host h1 and the bot's own, each with a running item. */
  async function runningThereAndHere() {
    const placed = await env.addProject({ name: "placed" });
    await registerHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", TTL, "/data/a");
    await updateProject(env.db, CLI_ACTOR, "placed", { host: "h1" });
    const there = await startConversation(env.db, env.clock, placed, "there", "U");
    const here = await startConversation(env.db, env.clock, env.project, "here", "U");
    await claimSlots(env.db, env.clock, fixedHostLoad(), "h1");
    await claimSlots(env.db, env.clock, fixedHostLoad(), null);
    return { there, here };
  }

  afterEach(async () => env?.close());

  it("a held host name is refused to another process until its heartbeat is older than the TTL", async () => {
    env = await testEngine();
    // Owners of another machine's shape: never provably dead from here, only their heartbeat counts.
    expect(await registerHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", TTL, "/data/a")).toBe(true);
    expect(await registerHost(env.db, env.clock, "h1", "elsewhere:2:2:bb", TTL, "/data/b")).toBe(false);
    env.clock.advance(TTL - 1_000);
    expect(await heartbeatHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", readings)).toBe(true);
    env.clock.advance(TTL - 1_000);
    expect(await registerHost(env.db, env.clock, "h1", "elsewhere:2:2:bb", TTL, "/data/b")).toBe(false);
    env.clock.advance(2_000);
    expect(await registerHost(env.db, env.clock, "h1", "elsewhere:2:2:bb", TTL, "/data/b")).toBe(true);
    // The old owner learns it lost the name; a released name is free at once.
    expect(await heartbeatHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", readings)).toBe(false);
    await releaseHost(env.db, "h1", "elsewhere:2:2:bb");
    expect(await registerHost(env.db, env.clock, "h1", "elsewhere:3:3:cc", TTL, "/data/c")).toBe(true);
    const row = await env.db.selectFrom("hosts").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner: "elsewhere:3:3:cc", data_dir: "/data/c" });
  });

  it("placement refuses an unknown host; a host claims only its projects' items, the coordinator only unplaced ones, each under its own limit", async () => {
    env = await testEngine();
    await updateGlobalPolicy(
      env.db,
      env.clock,
      {
        max_concurrent: 1,
        load_pause_percent: 85,
        memory_pause_percent: 88,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "U",
    );
    const placed = await env.addProject({ name: "placed" });
    await expect(updateProject(env.db, CLI_ACTOR, "placed", { host: "h1" })).rejects.toMatchObject({
      reason: "host_not_found",
    });
    await registerHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", TTL, "/data/a");
    await registerHost(env.db, env.clock, "h2", "elsewhere:2:2:bb", TTL, "/data/b");
    expect((await updateProject(env.db, CLI_ACTOR, "placed", { host: "h1" })).host).toBe("h1");

    const here = await startConversation(env.db, env.clock, env.project, "here", "U");
    const there1 = await startConversation(env.db, env.clock, placed, "there 1", "U");
    const there2 = await startConversation(env.db, env.clock, placed, "there 2", "U");
    const host = fixedHostLoad();
    // h2 has no project: it claims nothing (while items wait).
    expect((await claimSlots(env.db, env.clock, host, "h2")).started).toEqual([]);
    // h1 and the coordinator each start one (max_concurrent is per machine), never the other's.
    expect((await claimSlots(env.db, env.clock, host, "h1")).started.map((s) => s.id)).toEqual([
      there1.item.id,
    ]);
    expect((await claimSlots(env.db, env.clock, host, null)).started.map((s) => s.id)).toEqual([
      here.item.id,
    ]);
    const full = await claimSlots(env.db, env.clock, host, "h1");
    expect(full).toEqual({ started: [], paused: ["concurrency"] });
    // Moving a project with a running item is refused; once it finished, its queued item follows it.
    await expect(moveProject(env.db, CLI_ACTOR, "placed", "h2")).rejects.toMatchObject({
      reason: "project_running",
    });
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "done" })
      .where("id", "=", there1.item.id)
      .execute();
    expect(await moveProject(env.db, CLI_ACTOR, "placed", "h2")).toMatchObject({ from: "h1", to: "h2" });
    expect((await claimSlots(env.db, env.clock, host, "h1")).started).toEqual([]);
    expect((await claimSlots(env.db, env.clock, host, "h2")).started.map((s) => s.id)).toEqual([
      there2.item.id,
    ]);
  });

  it("a host whose heartbeat is older than the TTL claims nothing (its surviving workers' dispatch included); a fresh heartbeat claims again", async () => {
    env = await testEngine();
    const placed = await env.addProject({ name: "placed" });
    await registerHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", TTL, "/data/a");
    await updateProject(env.db, CLI_ACTOR, "placed", { host: "h1" });
    const item = (await startConversation(env.db, env.clock, placed, "after the host died", "U")).item;
    const host = fixedHostLoad();
    env.clock.advance(TTL + 1_000);
    // What a worker left behind by a dead `codexpi host` asks for: nothing is claimed.
    expect(await claimSlots(env.db, env.clock, host, "h1", TTL)).toEqual({ started: [], paused: [] });
    // A name that never registered claims nothing either.
    expect((await claimSlots(env.db, env.clock, host, "h9", TTL)).started).toEqual([]);
    // Control: the same item is claimable by a live h1.
    expect(await heartbeatHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", readings)).toBe(true);
    expect((await claimSlots(env.db, env.clock, host, "h1", TTL)).started.map((s) => s.id)).toEqual([
      item.id,
    ]);
  });

  it("the coordinator interrupts items of a host whose heartbeat expired, and only those", async () => {
    env = await testEngine();
    const { there, here } = await runningThereAndHere();
    env.clock.advance(TTL - 1);
    expect(await interruptLostHosts(env.db, env.clock, env.engine.hook, silentLogger, TTL)).toEqual([]);
    env.clock.advance(2);
    expect(await interruptLostHosts(env.db, env.clock, env.engine.hook, silentLogger, TTL)).toEqual([
      there.item.id,
    ]);
    const rows = await env.db.selectFrom("prompt_queue").select(["id", "status", "error_code"]).execute();
    expect(rows.find((r) => r.id === there.item.id)).toMatchObject({
      status: "failed",
      error_code: "interrupted",
    });
    // The coordinator's own running item is judged by its pid (the reaper), never by a heartbeat.
    expect(rows.find((r) => r.id === here.item.id)?.status).toBe("running");
  });

  it("a stop flags a host's running item but signals only this machine's workers (a pid is local)", async () => {
    env = await testEngine();
    const { there, here } = await runningThereAndHere();
    await env.db.updateTable("prompt_queue").set({ worker_pid: 4242, worker_start_time: "99" }).execute();
    const remote = await stopUseCase(env.engine, there.conversation.id);
    expect(remote.value.stoppingRunning).toBe(1);
    expect(remote.effects.signal).toEqual([]);
    const local = await stopUseCase(env.engine, here.conversation.id);
    expect(local.effects.signal).toEqual([{ pid: 4242, startTime: "99" }]);
  });
});
