import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import * as m0012 from "../../db/migrations/0012_approvals.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

describe("migration 0012: approvals", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it("an existing database keeps its projects and conversations, which never ask until an admin says so; runs again without change", async () => {
    db = openDatabase(path.join(tempDir(), "approvals.db"));
    await migrate(asUnknown(db), "0010_slack_channel_defaults");
    await sql`insert into projects(id,name,path,owner_id,full_access,merge_confirmation_required,role,created_at) values ('p1','Projet','/tmp','U1',1,0,'project',1)`.execute(
      db,
    );
    await sql`insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values ('c1','p1','Travail','U1','idle',1,1)`.execute(
      db,
    );
    await migrate(asUnknown(db));
    const project = await db.selectFrom("projects").selectAll().executeTakeFirstOrThrow();
    expect(project).toMatchObject({ id: "p1", name: "Projet", full_access: 1, approval_mode: "never" });

    const row = {
      id: "a1",
      conversation_id: "c1",
      queue_id: "q1",
      attempt: 1,
      user_id: "U1",
      codex_thread_id: "t1",
      turn_id: "u1",
      item_id: "i1",
      approval_id: "i1",
      kind: "command" as const,
      command: "npm install",
      cwd: "/tmp",
      reason: null,
      diff: null,
      answered_by: null,
      answered_at: null,
      created_at: 2,
      expires_at: 3,
    };
    await db.insertInto("approvals").values(row).execute();
    expect(await db.selectFrom("approvals").select(["status", "files"]).executeTakeFirstOrThrow()).toEqual({
      status: "pending",
      files: "[]",
    });
    // The request's key is thread, item and approval id: the same request cannot be recorded twice.
    await expect(
      db
        .insertInto("approvals")
        .values({ ...row, id: "a2" })
        .execute(),
    ).rejects.toThrow(/UNIQUE/);
    await db
      .insertInto("approvals")
      .values({ ...row, id: "a3", approval_id: "other" })
      .execute();

    await m0012.up(asUnknown(db)); // interrupted half-way and run again: nothing changes
    expect(await db.selectFrom("approvals").select("id").orderBy("id").execute()).toEqual([
      { id: "a1" },
      { id: "a3" },
    ]);
    expect(
      (await db.selectFrom("projects").select("approval_mode").executeTakeFirstOrThrow()).approval_mode,
    ).toBe("never");
  });
});
