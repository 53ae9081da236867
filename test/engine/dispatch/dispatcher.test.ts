import path from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../../src/engine/conversations/conversations.js";
import { claimSlots } from "../../../src/engine/dispatch/dispatcher.js";
import { fixedHostLoad } from "../../../src/engine/system/hostLoad.js";
import { setProjectLimit, updateGlobalPolicy } from "../../../src/engine/projects/policies.js";
import { PRIORITY } from "../../../src/engine/conversations/priorities.js";
import { testEngine } from "../../support/engine.js";

const policy = (max: number, start = 0, end = 0) => ({
  max_concurrent: max,
  load_pause_percent: 85,
  memory_pause_percent: 88,
  background_start_hour: start,
  background_end_hour: end,
});

/**
 * A test engine whose project works in lanes (issue 18): its conversations run side by side up to
 * the policy's limits, which is what the tests using it measure (in a direct project's checkout
 * one agent at a time works, whatever the policy: directWorkspace.test.ts). Set up in the database
 * only: no worker runs here, so no lane is made.
 */
async function laneEngine() {
  const env = await testEngine();
  await env.db
    .updateTable("projects")
    .set({ workspace_mode: "branch" })
    .where("id", "=", env.project.id)
    .execute();
  return env;
}

describe("queue and dispatcher", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("priorities follow the origin: repair first, specialist bootstraps last", () => {
    expect(PRIORITY.repair).toBeGreaterThan(PRIORITY.decision_answer);
    expect(PRIORITY.decision_answer).toBe(PRIORITY.specialist_result);
    expect(PRIORITY.specialist_result).toBeGreaterThan(PRIORITY.user);
    expect(PRIORITY.user).toBeGreaterThan(PRIORITY.delegation);
    expect(PRIORITY.delegation).toBe(PRIORITY.orchestration);
    expect(PRIORITY.orchestration).toBeGreaterThan(PRIORITY.run_stage);
    expect(PRIORITY.run_stage).toBeGreaterThan(PRIORITY.specialist_bootstrap);
  });

  it("starts the highest priority first and FIFO within a priority, never by timestamp", async () => {
    env = await testEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(1), "U");
    const a = await startConversation(env.db, env.clock, env.project, "first user prompt", "U");
    const b = await startConversation(env.db, env.clock, env.project, "second user prompt", "U");
    env.clock.advance(-60_000); // a later insert with an earlier timestamp must not jump the line
    const c = await startConversation(env.db, env.clock, env.project, "decision answer", "U", {
      origin: "decision_answer",
    });
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await env.engine.dispatch();
      order.push(...r.started.map((s) => s.id));
      await env.db
        .updateTable("prompt_queue")
        .set({ status: "done" })
        .where("status", "=", "running")
        .execute();
    }
    expect(order).toEqual([c.item.id, a.item.id, b.item.id]);
  });

  it("at most one running item per conversation; a busy conversation never blocks the others", async () => {
    env = await laneEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(5), "U");
    const a = await startConversation(env.db, env.clock, env.project, "a1", "U");
    const a2 = await enqueue(env.db, env.clock, a.conversation.id, "a2");
    const b = await startConversation(env.db, env.clock, env.project, "b1", "U");
    const r = await env.engine.dispatch();
    expect(r.started.map((s) => s.id).sort()).toEqual([a.item.id, b.item.id].sort());
    expect(await env.engine.dispatch()).toEqual({ started: [], paused: [] });
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", a.item.id).execute();
    expect((await env.engine.dispatch()).started.map((s) => s.id)).toEqual([a2.id]);
  });

  it("S-Q-02: the global limit, then a project's own limit, hold new work back", async () => {
    env = await testEngine();
    const other = await env.addProject({ name: "other", ownerId: "U" });
    await updateGlobalPolicy(env.db, env.clock, policy(2), "U");
    await setProjectLimit(env.db, env.clock, env.project.id, 1, "U");
    const d1 = await startConversation(env.db, env.clock, env.project, "demo 1", "U");
    await startConversation(env.db, env.clock, env.project, "demo 2", "U");
    const o1 = await startConversation(env.db, env.clock, other, "other 1", "U");
    await startConversation(env.db, env.clock, other, "other 2", "U");
    const r = await env.engine.dispatch();
    expect(r.started.map((s) => s.id).sort()).toEqual([d1.item.id, o1.item.id].sort());
    expect((await env.engine.dispatch()).paused).toEqual(["concurrency"]);
    expect(env.spawner.calls).toHaveLength(2);
  });

  it("S-Q-02: load or memory above its threshold pauses new work, and it starts once they drop", async () => {
    env = await testEngine({ host: fixedHostLoad(95, 10) });
    await updateGlobalPolicy(env.db, env.clock, policy(2), "U");
    await startConversation(env.db, env.clock, env.project, "work", "U");
    expect(await claimSlots(env.db, env.clock, fixedHostLoad(95, 10))).toEqual({
      started: [],
      paused: ["load"],
    });
    expect(await claimSlots(env.db, env.clock, fixedHostLoad(10, 95))).toEqual({
      started: [],
      paused: ["memory"],
    });
    expect((await claimSlots(env.db, env.clock, fixedHostLoad(10, 10))).started).toHaveLength(1);
  });

  it("S-Q-03: background work starts only inside the window; foreground work passes it", async () => {
    env = await laneEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(5, 22, 7), "U");
    const bg = await startConversation(env.db, env.clock, env.project, "bootstrap", null, {
      origin: "specialist_bootstrap",
    });
    const fg = await startConversation(env.db, env.clock, env.project, "user work", "U");
    const noon = await claimSlots(env.db, env.clock, fixedHostLoad(0, 0, 12));
    expect(noon.started.map((s) => s.id)).toEqual([fg.item.id]);
    const night = await claimSlots(env.db, env.clock, fixedHostLoad(0, 0, 23));
    expect(night.started.map((s) => s.id)).toEqual([bg.item.id]);
  });

  it("an enqueue records the prompt as a user message and tells the outbox", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "hello", "U");
    const msg = await env.db
      .selectFrom("messages")
      .selectAll()
      .where("conversation_id", "=", conversation.id)
      .executeTakeFirstOrThrow();
    expect(msg).toMatchObject({ role: "user", content: "hello", queue_id: item.id });
    const events = await env.db.selectFrom("outbox").select("kind").execute();
    expect(events.map((e) => e.kind)).toEqual(["conversation.queued"]);
    await expect(enqueue(env.db, env.clock, conversation.id, "   ")).rejects.toMatchObject({
      code: "invalid",
    });
  });

  it("dispatchers in several processes at once never exceed the limit (one write lock for the claim)", async () => {
    env = await laneEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(3), "U");
    for (let i = 0; i < 10; i++) await startConversation(env.db, env.clock, env.project, `p${i}`, "U");
    // One connection per process, as in production: in one process a second connection would
    // block the event loop on SQLite's lock while the first one awaits.
    const db = env.config.database;
    const where = db.dialect === "postgres" ? db.url : db.file;
    const script = `
      const { openDatabase } = await import(${JSON.stringify(pathToFileURL(path.resolve("dist/src/engine/database.js")).href)});
      const { claimSlots } = await import(${JSON.stringify(pathToFileURL(path.resolve("dist/src/engine/dispatch/dispatcher.js")).href)});
      const db = openDatabase(process.argv[1]);
      const host = { loadPercent: () => 0, memoryPercent: () => 0, localHour: () => 12 };
      let started = 0;
      for (let i = 0; i < 20; i++) started += (await claimSlots(db, { now: () => Date.now() }, host)).started.length;
      process.stdout.write(String(started));
      await db.destroy();`;
    const runs = await Promise.all(
      [1, 2, 3].map(() => execa(process.execPath, ["--input-type=module", "-e", script, where])),
    );
    expect(runs.reduce((n, r) => n + Number(r.stdout), 0)).toBe(3);
    const running = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("status", "=", "running")
      .execute();
    expect(running).toHaveLength(3);
  });

  it("a claim pages on from where its last page left off: items claimed there do not hide the next candidates", async () => {
    env = await laneEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(64), "U");
    const busy = await startConversation(env.db, env.clock, env.project, "z0", "U");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running" })
      .where("id", "=", busy.item.id)
      .execute();
    // The first page (100 candidates) holds 30 claimable items and 70 of the busy conversation;
    // 30 more claimable items follow it.
    for (let i = 0; i < 70; i++) {
      if (i < 30) await startConversation(env.db, env.clock, env.project, `c${i}`, "U");
      await enqueue(env.db, env.clock, busy.conversation.id, `z${i + 1}`);
    }
    for (let i = 0; i < 30; i++) await startConversation(env.db, env.clock, env.project, `d${i}`, "U");
    const { started } = await claimSlots(env.db, env.clock, fixedHostLoad());
    expect(started).toHaveLength(60);
    expect(started.map((s) => s.conversationId)).not.toContain(busy.conversation.id);
  });
});
