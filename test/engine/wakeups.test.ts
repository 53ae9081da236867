import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { openDatabase, writeTransaction, type Database } from "../../src/engine/database.js";
import { Engine } from "../../src/engine/engine.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
import { emit } from "../../src/engine/outbox.js";
import { announce, closeWakeups, wakeOrTimeout, wakeupsOf, type Wakeups } from "../../src/engine/wakeups.js";
import { recordingSpawner, testEngine } from "../support/engine.js";

// Run by the postgres project only (vitest.config.ts): LISTEN/NOTIFY between two handles with
// pools of their own, which is what two processes hold.

type Env = Awaited<ReturnType<typeof testEngine>>;
let env: Env | undefined;
const others: Database[] = [];
afterEach(async () => {
  for (const db of others.splice(0)) {
    await closeWakeups(db);
    await db.destroy();
  }
  await env?.close();
  env = undefined;
});

/** Another handle on the same database with its own pool: what another process would hold. */
function secondProcess(t: Env): Database {
  if (t.config.database.dialect !== "postgres") throw new Error("postgres only");
  const db = openDatabase(t.config.database);
  others.push(db);
  return db;
}

/** The poll period the wake-ups must beat by far. */
const POLL_MS = 2_000;

/**
 * A watcher as the engine's loops are written: read, and if nothing is there yet sleep for the
 * poll period unless a wake-up comes first. Answers how long it took to see a queued item.
 */
async function seeQueued(db: Database, wakeups: Wakeups | null, started: () => number): Promise<number> {
  for (;;) {
    const row = await db
      .selectFrom("prompt_queue")
      .select("id")
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (row) return Date.now() - started();
    await wakeOrTimeout(wakeups, ["enqueue"], POLL_MS);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

describe("wake-ups on PostgreSQL (LISTEN/NOTIFY)", () => {
  it("an enqueue committed by one process is seen by the other well under the poll period; without the listener only the poll sees it", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const wakeups = wakeupsOf(other);
    await wakeups.ready();

    let t0 = 0;
    const watching = seeQueued(other, wakeups, () => t0);
    await new Promise((r) => setTimeout(r, 300)); // the watcher has read nothing and sleeps
    t0 = Date.now();
    await startConversation(env.db, env.clock, env.project, "hello", "U1");
    const woken = await watching;
    expect(woken).toBeLessThan(POLL_MS / 4);

    // Positive control: the same watcher without a listener waits for its next poll.
    await env.db.updateTable("prompt_queue").set({ status: "cancelled" }).execute();
    const polling = seeQueued(other, null, () => t0);
    await new Promise((r) => setTimeout(r, 300));
    t0 = Date.now();
    await startConversation(env.db, env.clock, env.project, "again", "U1");
    const polled = await polling;
    expect(polled).toBeGreaterThan(POLL_MS / 2);
    console.log(`enqueue seen by another process: ${woken} ms woken, ${polled} ms by the poll alone`);
  });

  it("measures the wake-up latency across pools (median of 20 commits)", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const wakeups = wakeupsOf(other);
    await wakeups.ready();
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const woken = wakeOrTimeout(wakeups, ["outbox"], POLL_MS);
      const t0 = performance.now();
      await writeTransaction(env.db, (trx) =>
        emit(trx, env!.clock.now(), { kind: "incident.opened", incidentId: `i${i}`, status: "OPEN" }),
      );
      expect(await woken).toBe("woken");
      latencies.push(performance.now() - t0);
    }
    console.log(
      `NOTIFY commit → listener in another pool: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    expect(median(latencies)).toBeLessThan(100);
  });

  it("a wake-up is delivered only on commit, never for a rollback; payloads tell items apart", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const wakeups = wakeupsOf(other);
    await wakeups.ready();

    const afterRollback = wakeOrTimeout(wakeups, ["cancel"], 500);
    await expect(
      writeTransaction(env.db, async (trx) => {
        await announce(trx, "cancel", "q1");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await afterRollback).toBe("timeout");

    const forQ2 = wakeOrTimeout(wakeups, ["cancel"], 500, { payload: "q2" });
    const forQ1 = wakeOrTimeout(wakeups, ["cancel"], 2_000, { payload: "q1" });
    let committed = false;
    const inFlight = writeTransaction(env.db, async (trx) => {
      await announce(trx, "cancel", "q1");
      await new Promise((r) => setTimeout(r, 300)); // not yet committed: nothing may arrive
      committed = true;
    });
    const seen = await forQ1;
    expect(committed).toBe(true);
    expect(seen).toBe("woken");
    await inFlight;
    expect(await forQ2).toBe("timeout");
  });

  it("a stop wakes the worker of the stopped item in another process (cancel, its queue id), not the others", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const wakeups = wakeupsOf(other);
    await wakeups.ready();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "long", "U1");
    const { item: bystander } = await startConversation(env.db, env.clock, env.project, "other", "U1");
    // Both run (no worker process: nothing to signal); only the first conversation is stopped.
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", started_at: env.clock.now() })
      .execute();
    const forItem = wakeOrTimeout(wakeups, ["cancel"], POLL_MS, { payload: item.id });
    const forBystander = wakeOrTimeout(wakeups, ["cancel"], 500, { payload: bystander.id });
    const t0 = Date.now();
    expect((await env.engine.stopConversation(conversation.id)).stoppingRunning).toBe(1);
    expect(await forItem).toBe("woken");
    expect(Date.now() - t0).toBeLessThan(POLL_MS / 4);
    expect(await forBystander).toBe("timeout");
  });

  it("the listener reconnects when its connection is killed, and wakes every channel once after it", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const wakeups = wakeupsOf(other);
    await wakeups.ready();
    const catchUp = wakeOrTimeout(wakeups, ["answers"], 5_000);
    const killed = await sql<{ ok: boolean }>`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and query like 'LISTEN codexpi%'`.execute(env.db);
    expect(killed.rows).toEqual([{ ok: true }]);
    expect(await catchUp).toBe("woken"); // the reconnection's catch-up wake
    await wakeups.ready();
    const later = wakeOrTimeout(wakeups, ["answers"], 2_000, { payload: "a1" });
    await writeTransaction(env.db, (trx) => announce(trx, "answers", "a1"));
    expect(await later).toBe("woken");
  });

  it("a coordinator in another process dispatches an item queued elsewhere at once (enqueue wake-up)", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const spawner = recordingSpawner();
    const coordinator = new Engine({
      config: env.config,
      db: other,
      clock: env.clock,
      host: fixedHostLoad(),
      spawner,
      owner: "coordinator",
    });
    try {
      expect((await coordinator.tick()).state).toBe("processed"); // it holds the lease
      const wakeups = wakeupsOf(other);
      await wakeups.ready();
      const off = coordinator.dispatchOnWake(wakeups);
      const t0 = Date.now();
      const { item } = await startConversation(env.db, env.clock, env.project, "hello", "U1");
      while (spawner.calls.length === 0 && Date.now() - t0 < POLL_MS)
        await new Promise((r) => setTimeout(r, 10));
      const latency = Date.now() - t0;
      off();
      expect(spawner.calls).toEqual([{ queueId: item.id, attempt: 1 }]);
      console.log(`enqueue in one process → worker spawned by the coordinator in another: ${latency} ms`);
      expect(latency).toBeLessThan(POLL_MS / 4);
    } finally {
      spawner.killAll();
    }
  });
});
