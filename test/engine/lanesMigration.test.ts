import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";
import { emptyTestDatabase, type TestDatabase } from "../support/testDatabase.js";

// Both dialects: a database at 0018 holding a project and a conversation, migrated to 0019 (issue
// 18, lanes): the table appears empty, one lane per conversation, a lane goes with its conversation.

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

const tableNames = async (db: Database) => (await asUnknown(db).introspection.getTables()).map((t) => t.name);

const lane = (conversationId: string, branch: string) => ({
  conversation_id: conversationId,
  project_id: "p1",
  path: `/data/lanes/p1/${conversationId}`,
  branch,
  base_branch: "main",
  base_commit: "a".repeat(40),
  status: "active" as const,
  created_at: 5,
  updated_at: 5,
  finished_at: null,
});

describe("migration 0019: lanes", () => {
  let target: TestDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    await target?.drop();
    db = target = undefined;
  });

  it("adds an empty lanes table; one lane per conversation; removing the conversation removes its lane; migrating again changes nothing", async () => {
    target = await emptyTestDatabase(tempDir());
    db = openDatabase(target.target);
    await migrate(asUnknown(db), "0018_workspace_mode");
    expect(await tableNames(db)).not.toContain("lanes"); // positive control
    await sql`insert into projects (id, name, path, owner_id, full_access, merge_confirmation_required, created_at)
      values ('p1', 'demo', '/srv/demo', 'U1', 0, 0, 1)`.execute(db);
    await sql`insert into conversations (id, project_id, title, user_id, status, created_at, updated_at)
      values ('c1', 'p1', 'Travail', 'U1', 'idle', 1, 1)`.execute(db);

    expect(await migrate(asUnknown(db))).toContain("0019_lanes"); // and any later one
    expect(await db.selectFrom("lanes").selectAll().execute()).toEqual([]);
    await db.insertInto("lanes").values(lane("c1", "codexpi/travail-c1")).execute();
    const stored = await db.selectFrom("lanes").selectAll().executeTakeFirstOrThrow();
    expect({ ...stored, created_at: Number(stored.created_at) }).toMatchObject({
      ...lane("c1", "codexpi/travail-c1"),
      updated_at: expect.anything(),
    });
    await expect(db.insertInto("lanes").values(lane("c1", "codexpi/other-c1")).execute()).rejects.toThrow(
      /unique|duplicate|primary/i,
    );
    await sql`delete from conversations where id = 'c1'`.execute(db);
    expect(await db.selectFrom("lanes").selectAll().execute()).toEqual([]);
    expect(await migrate(asUnknown(db))).toEqual([]);
  });
});
