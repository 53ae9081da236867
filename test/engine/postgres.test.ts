import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../src/engine/conversations/conversations.js";
import {
  openDatabase,
  uniqueViolationOf,
  writeTransaction,
  type Database,
} from "../../src/engine/database.js";
import { openWritable, probeDatabaseWrite, StartupError } from "../../src/engine/storage.js";
import { testEngine } from "../support/engine.js";
import { TEST_DIALECT } from "../support/testDatabase.js";

// Run by the postgres project only (vitest.config.ts): what is particular to PostgreSQL.

type Env = Awaited<ReturnType<typeof testEngine>>;
let env: Env | undefined;
const others: Database[] = [];
afterEach(async () => {
  for (const db of others.splice(0)) await db.destroy();
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

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("the engine on PostgreSQL", () => {
  it("runs on PostgreSQL in this project", () => {
    expect(TEST_DIALECT).toBe("postgres");
  });

  it("migrates every landed migration; autoIncrement ids are identity columns", async () => {
    env = await testEngine();
    const tables = await env.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(["prompt_queue", "outbox", "remediation_run_events", "slack_addresses"]),
    );
    const identity = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where is_identity = 'YES' order by table_name`.execute(env.db);
    expect(identity.rows).toEqual([
      { table_name: "audit_events", column_name: "id" },
      { table_name: "intake_requests", column_name: "id" },
      { table_name: "orchestration_events", column_name: "id" },
      { table_name: "outbox", column_name: "id" },
      { table_name: "remediation_run_events", column_name: "id" },
    ]);
  });

  it("returns bigint columns and count(*) as numbers, and refuses one a double cannot hold", async () => {
    env = await testEngine();
    const { item } = await startConversation(env.db, env.clock, env.project, "hello", "U1");
    const row = await env.db
      .selectFrom("prompt_queue")
      .select(["seq", "created_at"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ seq: 1, created_at: env.clock.now() });
    const { n } = await env.db
      .selectFrom("prompt_queue")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(1);
    const sum = await sql<{ s: number }>`select sum(seq) as s from prompt_queue`.execute(env.db);
    expect(sum.rows[0]?.s).toBe(1);
    await expect(sql`select 9007199254740993::bigint as big`.execute(env.db)).rejects.toThrow(/exactly/);
  });

  it("a unique violation names its constraint, as the engine's conflict checks expect", async () => {
    env = await testEngine();
    const duplicate = await env.db
      .insertInto("projects")
      .values({ ...env.project, id: "other-id" })
      .execute()
      .catch((e: unknown) => e);
    expect(uniqueViolationOf(duplicate)).toBe("projects_name_key");
    expect(uniqueViolationOf(new Error("connection refused"))).toBeNull();
  });

  it("a server codexpi cannot reach stops the start with one sentence that never holds the password", async () => {
    const refused = await openWritable(
      { dialect: "postgres", url: "postgres://u:secret-pw-1@127.0.0.1:1/x" },
      { locale: "en" },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toMatch(/PostgreSQL database of DATABASE_URL: .*ECONNREFUSED/);
    expect((refused as Error).message).not.toContain("secret-pw-1");
  });

  it("the write probe passes on a writable server and fails on a read-only session", async () => {
    env = await testEngine();
    await probeDatabaseWrite(env.db);
    const readOnly = openDatabase({
      dialect: "postgres",
      url: `${(env.config.database as { url: string }).url}?options=-c%20default_transaction_read_only%3Don`,
    });
    others.push(readOnly);
    await expect(probeDatabaseWrite(readOnly)).rejects.toThrow(/read-only/);
  });
});

describe("write transactions on PostgreSQL", () => {
  it("serialise across processes: the second starts only after the first commits, and sees its writes", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const holding = deferred();
    const release = deferred();
    const order: string[] = [];
    const first = writeTransaction(env.db, async (trx) => {
      order.push("first in");
      await trx
        .insertInto("leases")
        .values({ name: "probe", owner: "A", expires_at: 1, acquired_at: 1 })
        .execute();
      holding.resolve();
      await release.promise; // a test gate: real callers never wait inside
      order.push("first out");
    });
    await holding.promise;
    const second = writeTransaction(other, async (trx) => {
      order.push("second in");
      return trx.selectFrom("leases").select("owner").where("name", "=", "probe").executeTakeFirst();
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(order).toEqual(["first in"]); // still waiting for the lock
    release.resolve();
    await first;
    expect(await second).toEqual({ owner: "A" });
    expect(order).toEqual(["first in", "first out", "second in"]);
  });

  it("a rolled-back write transaction releases the lock and leaves nothing behind", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    await expect(
      writeTransaction(env.db, async (trx) => {
        await trx
          .insertInto("leases")
          .values({ name: "x", owner: "A", expires_at: 1, acquired_at: 1 })
          .execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const row = await writeTransaction(other, (trx) =>
      trx.selectFrom("leases").select("name").where("name", "=", "x").executeTakeFirst(),
    );
    expect(row).toBeUndefined();
  });

  it("sequence numbers do not race: concurrent enqueues from two processes get distinct, gapless seqs", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const { conversation } = await startConversation(env.db, env.clock, env.project, "first", "U1");
    const handles = [env.db, other];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        enqueue(handles[i % 2] as Database, env!.clock, conversation.id, `prompt ${i}`),
      ),
    );
    const seqs = (await env.db.selectFrom("prompt_queue").select("seq").orderBy("seq").execute()).map(
      (r) => r.seq,
    );
    expect(seqs).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });

  it("positive control: max(seq) + 1 outside a write transaction does race under READ COMMITTED", async () => {
    env = await testEngine();
    const other = secondProcess(env);
    const { item } = await startConversation(env.db, env.clock, env.project, "first", "U1");
    const bothRead = deferred();
    let reads = 0;
    const insertNext = (db: Database) =>
      db.transaction().execute(async (trx) => {
        const { next } = await trx
          .selectFrom("prompt_queue")
          .select(sql<number>`coalesce(max(seq), 0) + 1`.as("next"))
          .executeTakeFirstOrThrow();
        if (++reads === 2) bothRead.resolve();
        await bothRead.promise; // both have read the same maximum before either writes
        const row = await trx
          .selectFrom("prompt_queue")
          .selectAll()
          .where("id", "=", item.id)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("prompt_queue")
          .values({ ...row, id: `${row.id}-${next}-${reads}-${Math.random()}`, seq: next })
          .execute();
      });
    const results = await Promise.allSettled([insertNext(env.db), insertNext(other)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(String(failed?.reason)).toMatch(/duplicate key|uq_prompt_queue_seq/);
  });
});
