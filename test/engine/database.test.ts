import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, migrateIfBehind, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

describe("database migrations", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it("S-Q-01: an earlier prompt_queue without priority columns is upgraded before the index, without losing rows", async () => {
    db = openDatabase(path.join(tempDir(), "legacy.db"));
    await migrate(asUnknown(db), "0001_initial");
    const columnsBefore = await sql<{
      name: string;
    }>`select name from pragma_table_info('prompt_queue')`.execute(db);
    expect(columnsBefore.rows.map((r) => r.name)).not.toContain("priority");

    await sql`insert into projects(id,name,path,owner_id,full_access,merge_confirmation_required,role,created_at) values ('p1','Projet source','/tmp','U1',0,0,'project',1)`.execute(
      db,
    );
    await sql`insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values ('c1','p1','Travail','U1','idle',1,1)`.execute(
      db,
    );
    for (let i = 1; i <= 3; i++) {
      await sql`insert into prompt_queue(id,seq,conversation_id,content,status,created_at) values (${`q${i}`},${i},'c1',${`prompt ${i}`},'queued',${i})`.execute(
        db,
      );
    }

    await migrate(asUnknown(db));

    const columns = (
      await sql<{ name: string }>`select name from pragma_table_info('prompt_queue')`.execute(db)
    ).rows.map((r) => r.name);
    expect(columns).toEqual(
      expect.arrayContaining(["priority", "delegation_depth", "origin_kind", "slot_acquired_at"]),
    );
    const indexes = (
      await sql<{ name: string }>`select name from pragma_index_list('prompt_queue')`.execute(db)
    ).rows.map((r) => r.name);
    expect(indexes).toContain("idx_prompt_queue_priority");
    const rows = await db
      .selectFrom("prompt_queue")
      .select(["id", "content", "priority", "origin_kind", "delegation_depth"])
      .orderBy("seq")
      .execute();
    expect(rows).toEqual([
      { id: "q1", content: "prompt 1", priority: 60, origin_kind: "user", delegation_depth: 0 },
      { id: "q2", content: "prompt 2", priority: 60, origin_kind: "user", delegation_depth: 0 },
      { id: "q3", content: "prompt 3", priority: 60, origin_kind: "user", delegation_depth: 0 },
    ]);
  });

  it("re-running a migration that half-applied adds only what is missing", async () => {
    db = openDatabase(path.join(tempDir(), "half.db"));
    await migrate(asUnknown(db), "0001_initial");
    // A crash after the first ALTER of 0002: one column exists, the migration is not recorded.
    await sql`alter table prompt_queue add column priority integer not null default 60`.execute(db);
    await migrate(asUnknown(db));
    const columns = (
      await sql<{ name: string }>`select name from pragma_table_info('prompt_queue')`.execute(db)
    ).rows.map((r) => r.name);
    expect(columns.filter((c) => c === "priority")).toHaveLength(1);
    expect(columns).toContain("slot_acquired_at");
  });

  it("every connection has WAL, a busy timeout and foreign keys on", async () => {
    db = openDatabase(path.join(tempDir(), "pragmas.db"));
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(journal.rows[0]?.journal_mode).toBe("wal");
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    expect(busy.rows[0]?.timeout).toBeGreaterThanOrEqual(1000);
  });
});

describe("opening a database that is up to date", () => {
  const handles: Database[] = [];
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.destroy();
  });
  /** A database handle that records the statements it sends. */
  function recorded(file: string): { db: Kysely<unknown>; sent: string[] } {
    const sent: string[] = [];
    const db = openDatabase(file, { log: (e) => sent.push(e.query.sql) });
    handles.push(db);
    return { db: asUnknown(db), sent };
  }

  it("reads the migrator's table once and runs no migrator; a database behind, new or ahead still goes through it", async () => {
    const dir = tempDir();
    // Positive control: a new database is migrated, by the migrator (its lock table and all).
    const fresh = recorded(path.join(dir, "new.db"));
    const applied = await migrateIfBehind(fresh.db);
    expect(applied.length).toBeGreaterThan(20);
    expect(fresh.sent.some((s) => s.includes("kysely_migration_lock"))).toBe(true);

    // Up to date: one statement, the read, and nothing applied.
    const again = recorded(path.join(dir, "new.db"));
    expect(await migrateIfBehind(again.db)).toEqual([]);
    expect(again.sent).toEqual(["select name from kysely_migration"]);

    // Behind: what is missing is applied, as `migrate` would.
    const behind = recorded(path.join(dir, "behind.db"));
    await migrate(behind.db, "0001_initial");
    expect(await migrateIfBehind(behind.db)).toEqual(applied.slice(1));

    // Ahead (a newer codexpi migrated it): the migrator refuses, as it always did.
    const ahead = recorded(path.join(dir, "new.db"));
    await sql`insert into kysely_migration(name, timestamp) values ('9999_from_the_future', '2099-01-01T00:00:00.000Z')`.execute(
      ahead.db,
    );
    await expect(migrateIfBehind(ahead.db)).rejects.toThrow(/9999_from_the_future|corrupted/);
  });
});
