import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { up } from "../../db/migrations/0031_project_network.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { projectNetwork } from "../../src/engine/network/index.js";
import { tempDir } from "../support/engine.js";
import { emptyTestDatabase, type TestDatabase } from "../support/testDatabase.js";

// Both dialects: a database at 0030 holding a restricted and a full-access project, migrated to
// 0031 (issue 31, item 3): the upgrade changes nobody's behaviour.

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

const columnsOf = async (db: Database, table: string) =>
  (await asUnknown(db).introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);

/** A project row as 0030 knew it, with only the columns that have no default. */
const projectAt0030 = (db: Database, id: string, fullAccess: 0 | 1) =>
  sql`insert into projects (id, name, path, owner_id, full_access, merge_confirmation_required, created_at)
      values (${id}, ${id}, ${`/srv/${id}`}, 'U1', ${fullAccess}, 0, 1)`.execute(db);

const networks = async (db: Database) =>
  db.selectFrom("projects").select(["id", "network_mode", "network_hosts"]).orderBy("id").execute();

describe("migration 0031: a project's network", () => {
  let target: TestDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    await target?.drop();
    db = target = undefined;
  });

  it("full-access projects become open, the others an empty allowlist, new ones an empty allowlist; running it again changes nothing", async () => {
    target = await emptyTestDatabase(tempDir());
    db = openDatabase(target.target);
    await migrate(asUnknown(db), "0030_file_transfers");
    expect(await columnsOf(db, "projects")).not.toContain("network_mode"); // positive control
    await projectAt0030(db, "p1-restricted", 0);
    await projectAt0030(db, "p2-full", 1);

    expect(await migrate(asUnknown(db))).toContain("0031_project_network");
    await projectAt0030(db, "p3-new-full", 1);
    expect(await networks(db)).toEqual([
      { id: "p1-restricted", network_mode: "allowlist", network_hosts: "[]" },
      { id: "p2-full", network_mode: "open", network_hosts: "[]" },
      // A project added after the upgrade starts with no network, whatever its access.
      { id: "p3-new-full", network_mode: "allowlist", network_hosts: "[]" },
    ]);
    expect(projectNetwork((await networks(db))[0]!)).toEqual({ mode: "allowlist", hosts: [] });

    // Closed by an admin since: a second run of the migration's body leaves it closed.
    await db
      .updateTable("projects")
      .set({ network_mode: "allowlist", network_hosts: '["registry.npmjs.org"]' })
      .where("id", "=", "p2-full")
      .execute();
    await up(asUnknown(db));
    expect(await migrate(asUnknown(db))).toEqual([]);
    expect((await networks(db))[1]).toEqual({
      id: "p2-full",
      network_mode: "allowlist",
      network_hosts: '["registry.npmjs.org"]',
    });
    await expect(
      db
        .updateTable("projects")
        .set({ network_mode: null as unknown as "off" })
        .execute(),
    ).rejects.toThrow(/network_mode|NOT NULL|null value/i);
  });
});
