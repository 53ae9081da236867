import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";
import { emptyTestDatabase, type TestDatabase } from "../support/testDatabase.js";

// Both dialects: a database at 0017 holding a project, migrated to 0018 (issue 18, workspace mode).

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

const columnsOf = async (db: Database, table: string) =>
  (await asUnknown(db).introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);

/** A project row as 0017 knew it (no workspace mode), with only the columns that have no default. */
const projectAt0017 = (db: Database, id: string, name: string) =>
  sql`insert into projects (id, name, path, owner_id, full_access, merge_confirmation_required, created_at)
      values (${id}, ${name}, ${`/srv/${name}`}, 'U1', 0, 0, 1)`.execute(db);

describe("migration 0018: a project's workspace mode", () => {
  let target: TestDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    await target?.drop();
    db = target = undefined;
  });

  it("every existing and new project is direct, a project without a mode is refused, and migrating again changes nothing", async () => {
    target = await emptyTestDatabase(tempDir());
    db = openDatabase(target.target);
    await migrate(asUnknown(db), "0017_engine_forgets_slack");
    expect(await columnsOf(db, "projects")).not.toContain("workspace_mode"); // positive control
    await projectAt0017(db, "p1", "before");

    expect(await migrate(asUnknown(db))).toContain("0018_workspace_mode"); // and any later one
    await projectAt0017(db, "p2", "after");
    const modes = await db.selectFrom("projects").select(["id", "workspace_mode"]).orderBy("id").execute();
    expect(modes).toEqual([
      { id: "p1", workspace_mode: "direct" },
      { id: "p2", workspace_mode: "direct" },
    ]);
    await expect(
      db
        .updateTable("projects")
        .set({ workspace_mode: null as unknown as "direct" })
        .execute(),
    ).rejects.toThrow(/workspace_mode|NOT NULL|null value/i);
    await db.updateTable("projects").set({ workspace_mode: "branch" }).where("id", "=", "p2").execute();
    expect(await migrate(asUnknown(db))).toEqual([]);
    expect(
      (
        await db
          .selectFrom("projects")
          .select("workspace_mode")
          .where("id", "=", "p2")
          .executeTakeFirstOrThrow()
      ).workspace_mode,
    ).toBe("branch");
  });
});
