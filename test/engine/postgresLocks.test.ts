import { afterEach, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import type { DB } from "../../src/engine/schema.js";
import { enqueue, startConversation } from "../../src/engine/conversations/conversations.js";
import { lockConversation } from "../../src/engine/conversations/conversationStore.js";
import { claimSlots } from "../../src/engine/dispatch/dispatcher.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { heartbeatHost, interruptLostHosts, registerHost } from "../../src/engine/dispatch/hosts.js";
import { moveProject } from "../../src/engine/projects/placement.js";
import { CLI_ACTOR, removeProject } from "../../src/engine/projects/index.js";
import { stopUseCase } from "../../src/engine/conversations/stop.js";
import { acquireLease } from "../../src/engine/leases.js";
import { markDelivered } from "../../src/engine/outboxQueue.js";
import { silentLogger } from "../../src/logger.js";
import { claimLock, openDatabase, writeTransaction, type Database } from "../../src/engine/database.js";
import { testEngine } from "../support/engine.js";

// Run by the postgres project only (vitest.config.ts): the precise locks that replaced the one
// global advisory lock on PostgreSQL's hot paths (enqueue, claims, leases), raced across pools.

type Env = Awaited<ReturnType<typeof testEngine>>;
let env: Env | undefined;
const others: Database[] = [];
afterEach(async () => {
  for (const db of others.splice(0)) await db.destroy();
  await env?.close();
  env = undefined;
});

/** `n` more handles on the same database, each with its own pool: what other processes hold. */
function otherProcesses(t: Env, n: number): Database[] {
  if (t.config.database.dialect !== "postgres") throw new Error("postgres only");
  const target = t.config.database;
  const made = Array.from({ length: n }, () => openDatabase(target));
  others.push(...made);
  return made;
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

/**
 * A write transaction that runs `first`, then holds its locks until `release()` (a test gate: real
 * callers never wait inside), then runs `after`; resolved once the locks are held.
 */
async function holdTransaction(
  db: Database,
  opts: {
    first?: (trx: Kysely<DB>) => Promise<unknown>;
    after?: (trx: Kysely<DB>) => Promise<unknown>;
    scope?: Parameters<typeof writeTransaction>[2];
  } = {},
) {
  const holding = deferred();
  const gate = deferred();
  const done = writeTransaction(
    db,
    async (trx) => {
      await opts.first?.(trx);
      holding.resolve();
      await gate.promise;
      await opts.after?.(trx);
    },
    opts.scope,
  );
  await holding.promise;
  return { release: gate.resolve, done };
}

/** Resolves to "timeout" unless `p` settles within `ms`. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);

const policy = (max: number) => ({
  max_concurrent: max,
  load_pause_percent: 85,
  memory_pause_percent: 88,
  background_start_hour: 0,
  background_end_hour: 0,
});

describe("enqueue on PostgreSQL without the global lock", () => {
  it("many concurrent enqueues on four connections get unique seqs, increasing in each caller's order", async () => {
    env = await testEngine();
    const handles = [env.db, ...otherProcesses(env, 3)];
    const conversations = [];
    for (let i = 0; i < 3; i++)
      conversations.push(
        (await startConversation(env.db, env.clock, env.project, `c${i}`, "U1")).conversation,
      );
    // Each connection enqueues 30 prompts one after the other, spread over the three conversations.
    const perCaller = await Promise.all(
      handles.map(async (db, h) => {
        const seqs: Array<{ conversationId: string; seq: number }> = [];
        for (let i = 0; i < 30; i++) {
          const c = conversations[(h + i) % conversations.length]!;
          const item = await enqueue(db, env!.clock, c.id, `prompt ${h}.${i}`);
          seqs.push({ conversationId: c.id, seq: item.seq });
        }
        return seqs;
      }),
    );
    for (const seqs of perCaller) {
      const mine = seqs.map((s) => s.seq);
      expect(mine).toEqual([...mine].sort((a, b) => a - b)); // a caller's later prompt comes later
    }
    const stored = await env.db.selectFrom("prompt_queue").select(["id", "seq"]).execute();
    expect(stored).toHaveLength(3 + 4 * 30);
    expect(new Set(stored.map((r) => r.seq)).size).toBe(stored.length);
    expect(perCaller.flat().every((s) => stored.some((r) => r.seq === s.seq))).toBe(true);
  });

  it("within one conversation a seq is never committed below one already visible (FIFO for claims)", async () => {
    env = await testEngine();
    const handles = [env.db, ...otherProcesses(env, 3)];
    const { conversation } = await startConversation(env.db, env.clock, env.project, "first", "U1");
    let done = false;
    const violations: string[] = [];
    // A reader in a fifth role: every snapshot of the conversation's seqs must extend the last one.
    const watcher = (async () => {
      let seen: number[] = [];
      while (!done) {
        const now = (
          await env!.db
            .selectFrom("prompt_queue")
            .select("seq")
            .where("conversation_id", "=", conversation.id)
            .orderBy("seq")
            .execute()
        ).map((r) => r.seq);
        if (seen.some((s, i) => now[i] !== s)) violations.push(`${seen.join(",")} then ${now.join(",")}`);
        seen = now;
      }
    })();
    await Promise.all(
      handles.map(async (db, h) => {
        for (let i = 0; i < 25; i++) await enqueue(db, env!.clock, conversation.id, `p ${h}.${i}`);
      }),
    );
    done = true;
    await watcher;
    expect(violations).toEqual([]);
  });

  it("an enqueue does not wait behind an unrelated long write transaction; a global one does", async () => {
    env = await testEngine();
    const [other] = otherProcesses(env, 1) as [Database];
    const { conversation } = await startConversation(env.db, env.clock, env.project, "first", "U1");
    const long = await holdTransaction(env.db);
    try {
      const item = await within(enqueue(other, env.clock, conversation.id, "not held back"), 5_000);
      expect(item).not.toBe("timeout");
      // Positive control: a transaction that takes the global lock waits for the long one.
      const global = writeTransaction(other, async () => "ran");
      expect(await within(global, 500)).toBe("timeout");
      long.release();
      expect(await global).toBe("ran");
    } finally {
      long.release();
      await long.done;
    }
  });
});

describe("claims on PostgreSQL: the placement's lock and SKIP LOCKED", () => {
  const ROUNDS = 30;

  it("four concurrent claimers per host never exceed the host's limit nor claim one item twice", async () => {
    env = await testEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(3), "U");
    // In lanes (issue 18): several conversations of one project run side by side, up to the limits.
    const north = await env.addProject({ name: "north", ownerId: "U", workspaceMode: "branch" });
    const south = await env.addProject({ name: "south", ownerId: "U", workspaceMode: "branch" });
    await env.db.updateTable("projects").set({ host: "h1" }).where("id", "=", north.id).execute();
    await env.db.updateTable("projects").set({ host: "h2" }).where("id", "=", south.id).execute();
    for (let i = 0; i < ROUNDS * 3; i++) {
      await startConversation(env.db, env.clock, north, `n${i}`, "U");
      await startConversation(env.db, env.clock, south, `s${i}`, "U");
    }
    // Four connections, each claiming for both hosts at once: four concurrent claimers per host.
    const claimers = [env.db, ...otherProcesses(env, 3)].flatMap((db) => [
      { db, host: "h1" },
      { db, host: "h2" },
    ]);
    const claimed: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(
        claimers.map((c) => claimSlots(c.db, env!.clock, fixedHostLoad(), c.host)),
      );
      for (const host of ["h1", "h2"]) {
        const running = await env.db
          .selectFrom("prompt_queue as q")
          .innerJoin("conversations as c", "c.id", "q.conversation_id")
          .innerJoin("projects as p", "p.id", "c.project_id")
          .select("q.id")
          .where("q.status", "=", "running")
          .where("p.host", "=", host)
          .execute();
        expect(running.length).toBeLessThanOrEqual(3);
        if (round < ROUNDS - 1) expect(running.length).toBe(3); // positive control: the limit is reached
      }
      claimed.push(...results.flatMap((r) => r.started.map((s) => s.id)));
      await env.db
        .updateTable("prompt_queue")
        .set({ status: "done" })
        .where("status", "=", "running")
        .execute();
    }
    expect(claimed).toHaveLength(ROUNDS * 6);
    expect(new Set(claimed).size).toBe(claimed.length);
  });

  it("a claim does not wait behind an unrelated long write transaction; a claim of the same host does", async () => {
    env = await testEngine();
    await updateGlobalPolicy(env.db, env.clock, policy(2), "U");
    const [other] = otherProcesses(env, 1) as [Database];
    const busy = await startConversation(env.db, env.clock, env.project, "held", "U");
    await startConversation(env.db, env.clock, env.project, "claimable", "U");
    // A long transaction under the global lock that also holds a conversation's row and one item's.
    const long = await holdTransaction(env.db, {
      first: async (trx) => {
        await lockConversation(trx, busy.conversation.id);
        await trx
          .updateTable("prompt_queue")
          .set({ last_activity: "x" })
          .where("id", "=", busy.item.id)
          .execute();
      },
    });
    try {
      const claim = await within(claimSlots(other, env.clock, fixedHostLoad()), 5_000);
      expect(claim).not.toBe("timeout");
      if (claim === "timeout") return;
      // The row the long transaction holds is passed over (SKIP LOCKED), the other one claimed.
      expect(claim.started.map((s) => s.conversationId)).not.toContain(busy.conversation.id);
      expect(claim.started).toHaveLength(1);
      // Positive control: the global lock (what every claim took before) waits for the long one.
      const global = writeTransaction(other, async () => "ran");
      expect(await within(global, 500)).toBe("timeout");
      long.release();
      await global;
    } finally {
      long.release();
      await long.done;
    }
    // And claims of one placement take turns: one waits while another holds its claim lock.
    const held = deferred();
    const free = deferred();
    const holder = writeTransaction(
      env.db,
      async () => {
        held.resolve();
        await free.promise;
      },
      { locks: [claimLock(null)] },
    );
    await held.promise;
    const waiting = claimSlots(other, env.clock, fixedHostLoad());
    expect(await within(waiting, 500)).toBe("timeout");
    free.resolve();
    await holder;
    await waiting;
  });
});

describe("leases on PostgreSQL", () => {
  it("many processes racing for one lease: exactly one wins, without the global lock", async () => {
    env = await testEngine();
    const handles = [env.db, ...otherProcesses(env, 3)];
    for (let round = 0; round < 10; round++) {
      const won = await Promise.all(
        handles.map((db, i) => acquireLease(db, env!.clock, `lease-${round}`, `owner-${i}`, 60_000)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });
});

describe("deadlocks on PostgreSQL", () => {
  it("a transaction that dies of a deadlock runs again, so both writers of a crossed pair succeed", async () => {
    env = await testEngine();
    const [other] = otherProcesses(env, 1) as [Database];
    const a = await startConversation(env.db, env.clock, env.project, "a", "U");
    const b = await startConversation(env.db, env.clock, env.project, "b", "U");
    let runs = 0;
    let bothHold = 0;
    const crossed = deferred();
    // Each locks one conversation, waits until the other holds its own, then wants the other's.
    const cross = (db: Database, first: string, second: string) =>
      writeTransaction(
        db,
        async (trx) => {
          runs += 1;
          await lockConversation(trx, first);
          if (++bothHold === 2) crossed.resolve();
          await crossed.promise; // a test gate: real callers never wait inside
          await lockConversation(trx, second);
          await trx
            .updateTable("conversations")
            .set({ title: `by ${first}` })
            .where("id", "=", second)
            .execute();
        },
        { locks: [] },
      );
    await Promise.all([
      cross(env.db, a.conversation.id, b.conversation.id),
      cross(other, b.conversation.id, a.conversation.id),
    ]);
    expect(runs).toBe(3); // positive control: one of the two was chosen as the deadlock's victim, and ran again
  });
});

describe("the other hot paths and the admin writes that guard them", () => {
  it("leases, host registration and heartbeats, stops, host loss and delivery marks do not wait behind a long global write", async () => {
    env = await testEngine();
    const [other] = otherProcesses(env, 1) as [Database];
    const placed = await env.addProject({ name: "placed", ownerId: "U" });
    await env.db.updateTable("projects").set({ host: "gone" }).where("id", "=", placed.id).execute();
    const lost = await startConversation(env.db, env.clock, placed, "on a lost host", "U");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", attempt: 1 })
      .where("id", "=", lost.item.id)
      .execute();
    const stopped = await startConversation(env.db, env.clock, env.project, "to stop", "U");
    const outbox = await env.db.selectFrom("outbox").select("id").execute();
    const long = await holdTransaction(env.db);
    try {
      const clock = env.clock;
      const hook = env.engine.hook;
      const all = Promise.all([
        acquireLease(other, clock, "coordinator", "me", 10_000),
        registerHost(other, clock, "h9", "elsewhere:9:9:aa", 30_000, "/data/h9"),
        heartbeatHost(other, clock, "h9", "elsewhere:9:9:aa", {
          loadPercent: 1,
          memoryPercent: 1,
          running: 0,
        }),
        stopUseCase({ ...env.engine, db: other }, stopped.conversation.id, "U"),
        interruptLostHosts(other, clock, hook, silentLogger, 30_000),
        markDelivered(
          other,
          outbox.map((o) => o.id),
          clock.now(),
        ),
      ]);
      const done = await within(all, 5_000);
      expect(done).not.toBe("timeout");
      if (done === "timeout") return;
      expect(done[0]).toBe(true);
      expect(done[1]).toBe(true);
      expect(done[4]).toEqual([lost.item.id]);
      // Positive control: a transaction that takes the global lock waits for the long one.
      const global = writeTransaction(other, async () => "ran");
      expect(await within(global, 500)).toBe("timeout");
      long.release();
      await global;
    } finally {
      long.release();
      await long.done;
    }
  });

  it("a project is not removed under an enqueue in flight: the removal waits for it, then refuses", async () => {
    env = await testEngine();
    const [other] = otherProcesses(env, 1) as [Database];
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "first", "U");
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", item.id).execute();
    // An enqueue's own locks (no global one): the conversation's row, then the new item.
    const enqueuing = await holdTransaction(env.db, {
      first: (trx) => lockConversation(trx, conversation.id),
      after: async (trx) =>
        trx
          .insertInto("prompt_queue")
          .values({
            ...(await trx
              .selectFrom("prompt_queue")
              .selectAll()
              .where("id", "=", item.id)
              .executeTakeFirstOrThrow()),
            id: "late",
            seq: 99,
            status: "queued",
          })
          .execute(),
      scope: { locks: [] },
    });
    const removal = removeProject(other, CLI_ACTOR, env.project.name).catch((e: unknown) => e);
    expect(await within(removal, 500)).toBe("timeout"); // it waits for the conversation's row
    enqueuing.release();
    await enqueuing.done;
    expect(await removal).toMatchObject({ code: "conflict", reason: "project_busy" });
    expect(
      await env.db.selectFrom("prompt_queue").select("id").where("id", "=", "late").execute(),
    ).toHaveLength(1);
  });

  it("a project does not move while a claim of its placement is in flight", async () => {
    env = await testEngine();
    const [other] = otherProcesses(env, 1) as [Database];
    await registerHost(env.db, env.clock, "h1", "elsewhere:1:1:aa", 30_000, "/data/a");
    const held = deferred();
    const free = deferred();
    const claiming = writeTransaction(
      env.db,
      async () => {
        held.resolve();
        await free.promise; // a test gate: real callers never wait inside
      },
      { locks: [claimLock(null)] },
    );
    await held.promise;
    const move = moveProject(other, CLI_ACTOR, env.project.name, "h1");
    expect(await within(move, 500)).toBe("timeout");
    free.resolve();
    await claiming;
    expect((await move).to).toBe("h1");
  });
});
