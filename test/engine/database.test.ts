import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
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
