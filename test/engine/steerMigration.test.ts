import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import * as m0013 from "../../db/migrations/0013_steer.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

describe("migration 0013: steer", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it("an existing database keeps its projects and queue, whose follow-ups still queue until someone allows steering; runs again without change", async () => {
    db = openDatabase(path.join(tempDir(), "steer.db"));
    await migrate(asUnknown(db), "0012_approvals");
    await sql`insert into projects(id,name,path,owner_id,full_access,merge_confirmation_required,role,created_at,approval_mode) values ('p1','Projet','/tmp','U1',0,0,'project',1,'on-request')`.execute(
      db,
    );
    await sql`insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values ('c1','p1','Travail','U1','running',1,1)`.execute(
      db,
    );
    await sql`insert into prompt_queue(id,seq,conversation_id,content,status,created_at,priority,origin_kind) values ('q1',1,'c1','go','running',1,60,'user'),('q2',2,'c1','also this','queued',2,60,'user')`.execute(
      db,
    );
    await migrate(asUnknown(db));
    expect(await db.selectFrom("projects").select(["id", "approval_mode", "steer"]).execute()).toEqual([
      { id: "p1", approval_mode: "on-request", steer: 0 },
    ]);
    expect(
      await db
        .selectFrom("prompt_queue")
        .select(["id", "status", "content", "steer_turn_id", "steered_into"])
        .orderBy("seq")
        .execute(),
    ).toEqual([
      { id: "q1", status: "running", content: "go", steer_turn_id: null, steered_into: null },
      { id: "q2", status: "queued", content: "also this", steer_turn_id: null, steered_into: null },
    ]);
    await db.updateTable("projects").set({ steer: 1 }).execute();
    await m0013.up(asUnknown(db)); // interrupted half-way and run again: nothing changes
    expect((await db.selectFrom("projects").select("steer").executeTakeFirstOrThrow()).steer).toBe(1);
  });
});
