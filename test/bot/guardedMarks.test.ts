/**
 * Issue 17, item 6: the outbox, post and intake queues are marked with their from-state in the
 * WHERE, so a mark that lost a race (another notifier, a replay, a late retry) changes nothing.
 * Each case has its positive control: the same mark from the right state does change the row.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IntakeStore } from "../../src/bot/intake/store.js";
import { SlackPosts } from "../../src/bot/store/posts.js";
import { SharedIntakeStore } from "../../src/bot/store/sharedIntake.js";
import { emit } from "../../src/engine/outbox.js";
import { markDelivered, markFailed, postpone } from "../../src/engine/outboxQueue.js";
import { testEngine } from "../support/engine.js";

let env: Awaited<ReturnType<typeof testEngine>> | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function outboxRows() {
  return env!.db.selectFrom("outbox").select(["id", "status", "next_attempt_at"]).orderBy("id").execute();
}

describe("guarded marks on the queues", () => {
  it("outbox: an event given up stays given up when a late delivery or postponement comes; a pending one is delivered", async () => {
    env = await testEngine();
    const now = env.clock.now();
    await emit(
      env.db,
      now,
      { kind: "incident.opened", incidentId: "i1", status: "OPEN" },
      { kind: "incident.opened", incidentId: "i2", status: "OPEN" },
    );
    const [failed, pending] = await outboxRows();
    await markFailed(env.db, failed!.id, 3, "gone", now);
    await markDelivered(env.db, [failed!.id, pending!.id], now);
    await postpone(env.db, failed!.id, now + 60_000);
    const [a, b] = await outboxRows();
    expect(a).toMatchObject({ status: "failed", next_attempt_at: failed!.next_attempt_at });
    expect(b!.status).toBe("done"); // positive control
    await markFailed(env.db, pending!.id, 1, "late", now);
    expect((await outboxRows())[1]!.status).toBe("done");
  });

  it("posts: a post keeps the ts it was first recorded with; a post being sent gets its ts", async () => {
    env = await testEngine();
    const posts = new SlackPosts(env.db, env.clock);
    await emit(env.db, env.clock.now(), { kind: "incident.opened", incidentId: "i1", status: "OPEN" });
    const [event] = await outboxRows();
    await posts.intend({
      key: "k1",
      outboxId: event!.id,
      conversationId: null,
      purpose: "notice",
      channel: "C1",
      threadTs: null,
    });
    await posts.markPosted("k1", "111.1");
    expect(await posts.find("k1")).toMatchObject({ ts: "111.1", status: "posted" }); // positive control
    await posts.markPosted("k1", "222.2");
    expect(await posts.find("k1")).toMatchObject({ ts: "111.1", status: "posted" });
  });

  it("local intake journal: a consumed request is never put aside again; a pending one is", async () => {
    env = await testEngine();
    const store = new IntakeStore(path.join(env.dir, "intake.db"));
    try {
      const now = env.clock.now();
      const consumed = (await store.record("e1", "event", {}, now))!;
      const waiting = (await store.record("e2", "event", {}, now))!;
      store.done(consumed, now);
      store.defer(consumed, now, 1000, 10_000);
      store.defer(waiting, now, 1000, 10_000);
      expect(store.counts()).toMatchObject({ done: 1, waiting: 1, pending: 0 });
    } finally {
      store.close();
    }
  });

  it("shared intake journal: a consumed request is never put aside or consumed again; a pending one is put aside", async () => {
    env = await testEngine();
    const store = new SharedIntakeStore(env.db, env.clock, "owner-a", 5000);
    const now = env.clock.now();
    const consumed = (await store.record("e1", "event", {}, now))!;
    const waiting = (await store.record("e2", "event", {}, now))!;
    await store.done(consumed, now);
    await store.defer(consumed, now + 1, 1000, 10_000);
    await store.done(consumed, now + 5);
    await store.defer(waiting, now, 1000, 10_000);
    const rows = await env.db
      .selectFrom("intake_requests")
      .select(["id", "status", "done_at", "attempts"])
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.status, Number(r.done_at ?? 0), Number(r.attempts)])).toEqual([
      ["done", now, 0],
      ["waiting", 0, 1],
    ]);
  });
});
