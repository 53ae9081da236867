import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import * as m0011 from "../../db/migrations/0011_project_readers.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

describe("migration 0011: projects visible to their channel, and who may prompt them", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it("existing projects stay private (today's rule), their data intact; prompters can be recorded and go with their project; it runs again without change", async () => {
    db = openDatabase(path.join(tempDir(), "readers.db"));
    await migrate(asUnknown(db), "0010_slack_channel_defaults");
    await sql`insert into projects(id,name,path,owner_id,full_access,merge_confirmation_required,slack_channel_id,role,created_at) values ('p1','demo','/tmp/demo','UOWNER',0,0,'C1','project',1), ('p2','legacy','/tmp/legacy',null,1,0,null,'project',2)`.execute(
      db,
    );
    await sql`insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values ('c1','p1','Travail','UOWNER','idle',1,1)`.execute(
      db,
    );

    expect(await migrate(asUnknown(db))).toContain("0011_project_readers");
    const projects = await db
      .selectFrom("projects")
      .select(["id", "name", "owner_id", "channel_id", "full_access", "visibility"]) // renamed by 0017
      .orderBy("id")
      .execute();
    expect(projects).toEqual([
      {
        id: "p1",
        name: "demo",
        owner_id: "UOWNER",
        channel_id: "C1",
        full_access: 0,
        visibility: "private",
      },
      {
        id: "p2",
        name: "legacy",
        owner_id: null,
        channel_id: null,
        full_access: 1,
        visibility: "private",
      },
    ]);
    expect(await db.selectFrom("conversations").select("id").execute()).toEqual([{ id: "c1" }]);

    await db
      .insertInto("project_prompters")
      .values({ project_id: "p1", user_id: "UBOB", added_by: "UOWNER", created_at: 3 })
      .execute();
    // One row per project and person.
    await expect(
      db
        .insertInto("project_prompters")
        .values({ project_id: "p1", user_id: "UBOB", added_by: "UOWNER", created_at: 4 })
        .execute(),
    ).rejects.toThrow(/UNIQUE|PRIMARY/i);

    // Run again (a crash after the column, before the table): nothing changes, nothing fails.
    await m0011.up(asUnknown(db));
    expect(await db.selectFrom("project_prompters").selectAll().execute()).toHaveLength(1);

    // Removing the project removes who may prompt it (control: the row was there).
    await sql`pragma foreign_keys = on`.execute(db);
    await db.deleteFrom("projects").where("id", "=", "p1").execute();
    expect(await db.selectFrom("project_prompters").selectAll().execute()).toEqual([]);
  });
});
