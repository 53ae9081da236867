import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Migrator, sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrations } from "../../db/migrations/index.js";
import { up as repair } from "../../db/migrations/0008_repair_missing_columns.js";
import { recordCodexStart } from "../../src/engine/worker/worker.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import * as first0002 from "./fixtures/0002_as_first_landed.js";
import { tempDir } from "../support/engine.js";

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../db/migrations");

/**
 * Landed migrations, frozen: a database that ran one never runs it again, so an edit reaches only
 * new databases (0002 was edited once; 0008 repairs it). A change is a new migration. When a new
 * migration lands, record its hash here.
 */
const LANDED: Record<string, string> = {
  "0001_initial.ts": "2303282d4f60d91d306c60827eee27d36027f9ac9d7961b03a52c98903030e88",
  "0002_queue_priority_and_workers.ts": "c7f5f613325b6cbec7f8986c88c731f856f911ed53b106a8a829c12d76468546",
  "0003_slack.ts": "6a3cbfae5c5664ed4fc05bb28eca2cfb0e4e0ea66b2fc70e9840e1205f9c14d1",
  "0004_coordination.ts": "30f4d130dcdf74822473bcd92497e1f92922904fb02a90b1c758401ec12033bc",
  "0005_runs.ts": "67d1a0b51dc61fe12c48a97da48148f878cd6c3adb1af1290639e2c3d806495e",
  "0006_orchestrations.ts": "1067e443b33bfaaf0cddd9c7a35dd9c0914a668d853cf068e7626859ad1834bc",
  "0007_flow_threads.ts": "22b510ae7550d4568792748266b2ea770697c10454b6d0bd006ce6d70aa83c0e",
  "0008_repair_missing_columns.ts": "47081736cb57990094067af0b1154c94a5649e09d96badd8793658bf61886b40",
  "0009_slack_addresses.ts": "250c3dda6e8634c7e6a60370af1a0d3344057ce4def478342a0afcaac9906cfc",
  "0010_slack_channel_defaults.ts": "e26f63f12fd8684633a916f9523dce8347d85c8d6bdada0de5367f0df70be61d",
  "0011_project_readers.ts": "acc99b9e19bf9160138535917220ef4b4c28f10722b1888b07e0ea65d582c60f",
  "0012_approvals.ts": "9a1e66ada102d824c5b7b04b918620a4d0b54e3f7d7ba734c5e00424da0c4df2",
  "0013_steer.ts": "be15b0f52760e4633f3dbbe4a9e8d5db2697736385cd575b8d4011be45d602e0",
  "0014_worker_hosts.ts": "552af52097abe4d572a3713aada60fe0fa49f54036757867224ec35171f7ccc4",
  "0015_shared_intake.ts": "8a9f79aed5b15ed6045dab390ddb6c79570122e2bdb3b68e666dd93f2884e381",
  "0016_queue_sequence.ts": "6c9cc1f7bf55a4c97d12f30b7558d94b72d8600390b042bad28a5569e178eeda",
  "0017_engine_forgets_slack.ts": "28a245133e55920c6e2278467d41509dd8312b2898afe60416f2efa61e09b583",
  "0018_workspace_mode.ts": "f94f7cd8aab09961738a8303e3cddb2d5f9b48d763de514e2c9400d5616efff3",
  "0019_lanes.ts": "205eedc784ebd3716a9ab2d951c552321790a7d39511f4b9e81bc2936caa23fc",
  "0020_project_forge.ts": "8829e61780fc3142f8838a54c1e47e93123dc7804b85bdaf79af4453050bcda2",
  "0021_lane_card.ts": "331639b19f5fd045c06a932397dc58bce4677b02f294ca23373626802ac49c34",
  "0022_request_options.ts": "f68de404a35af850dcc7e527db111fabbdc08130bd43f110ba5a010801cec918",
  "0023_thread_context.ts": "c4e07295e28204978ee0db4556cd22889965fbf3b10f85f683b116eb1f354d09",
  "0029_usage_and_budgets.ts": "5da6438d7a273879a1b1e2cbbe17a72036940ad12a97de0d0825664b32d167cf",
  "0024_queue_attachments.ts": "ff0b4d1d310e126f67d69502584c9d5f3aa58f05725787dbeffb6fd1cfbd10e7",
  "0027_schedules.ts": "0ee66bd7c5b56db7200e55dd1147df3616251ac100449315cf4934c43c99e2e7",
  "0028_audit_events.ts": "5880d961bf369fa7d3ab871976800bf8831132efa68b8204df5ceca903fa5e16",
  "0030_file_transfers.ts": "ae8e51e7b8be9293c634725858c506b7e2690d60d814762c0293d761e0002690",
  "0031_project_network.ts": "67d5fe6e39e4a14a3a6c72f8061e5827a3cd717d454b942b10e7b627bf0c47ac",
};

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;
const columnsOf = async (db: Database, table: string) =>
  (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map(
    (r) => r.name,
  );

describe("migrations stay frozen", () => {
  it("a landed migration file never changes", () => {
    const changed = Object.entries(LANDED)
      .filter(
        ([file, hash]) =>
          !fs.existsSync(path.join(MIGRATIONS_DIR, file)) || sha256(path.join(MIGRATIONS_DIR, file)) !== hash,
      )
      .map(([file]) => file);
    expect(changed, "landed migrations are frozen: write a new migration instead").toEqual([]);
  });

  it("no migration file slips in among the landed ones unrecorded", () => {
    const last = Math.max(...Object.keys(LANDED).map((f) => Number(f.slice(0, 4))));
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{4}_.*\.ts$/.test(f) && Number(f.slice(0, 4)) <= last);
    expect(files.sort()).toEqual(Object.keys(LANDED).sort());
    expect(Object.keys(migrations)).toEqual(
      expect.arrayContaining(Object.keys(LANDED).map((f) => f.replace(/\.ts$/, ""))),
    );
  });
});

describe("migration 0008 repairs columns an edited migration left out", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  /** A database migrated up to 0007 while 0002 was still as it first landed. */
  async function migratedInBetween(): Promise<Database> {
    const opened = openDatabase(path.join(tempDir(), "between.db"));
    const then = { ...migrations, "0002_queue_priority_and_workers": first0002 };
    delete (then as Record<string, unknown>)["0008_repair_missing_columns"];
    const { error } = await new Migrator({
      db: asUnknown(opened),
      provider: { getMigrations: async () => then },
    }).migrateTo("0007_flow_threads");
    if (error) throw error;
    return opened;
  }

  async function queuedItem(db: Database): Promise<string> {
    await sql`insert into projects(id,name,path,owner_id,full_access,merge_confirmation_required,role,created_at) values ('p1','Projet','/tmp','U1',0,0,'project',1)`.execute(
      db,
    );
    await sql`insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values ('c1','p1','Travail','U1','idle',1,1)`.execute(
      db,
    );
    await sql`insert into prompt_queue(id,seq,conversation_id,content,status,created_at,attempt) values ('q1',1,'c1','prompt','running',1,1)`.execute(
      db,
    );
    return "q1";
  }

  it("a database migrated with the first 0002 upgrades, and the worker's record of Codex's start works", async () => {
    db = await migratedInBetween();
    expect(await columnsOf(db, "prompt_queue")).not.toContain("codex_started_at");
    const queueId = await queuedItem(db);
    await expect(recordCodexStart(db, 1234, queueId, 1, 4242, "99")).rejects.toThrow(/codex_started_at/); // the bug, before the repair

    // The repair runs first; later migrations follow it.
    expect((await migrate(asUnknown(db)))[0]).toBe("0008_repair_missing_columns");

    await recordCodexStart(db, 1234, queueId, 1, 4242, "99");
    const row = await db
      .selectFrom("prompt_queue")
      .select(["codex_pid", "codex_start_time", "codex_started_at", "content"])
      .where("id", "=", queueId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      codex_pid: 4242,
      codex_start_time: "99",
      codex_started_at: 1234,
      content: "prompt",
    });
  });

  it("the repair adds nothing to a complete database and can run again", async () => {
    db = openDatabase(path.join(tempDir(), "fresh.db"));
    await migrate(asUnknown(db), "0007_flow_threads");
    const tables = [
      "prompt_queue",
      "conversations",
      "projects",
      "incidents",
      "orchestrations",
      "remediation_runs",
    ];
    const before = await Promise.all(tables.map((t) => columnsOf(db!, t)));
    // Up to the repair only: later migrations add columns of their own (0011, 0012 on projects).
    await migrate(asUnknown(db), "0008_repair_missing_columns");
    await repair(asUnknown(db));
    expect(await Promise.all(tables.map((t) => columnsOf(db!, t)))).toEqual(before);
  });

  it("a missing NOT NULL column comes back with its default, and existing rows keep their values", async () => {
    db = await migratedInBetween();
    await queuedItem(db);
    await sql`alter table prompt_queue drop column origin_kind`.execute(db);
    await migrate(asUnknown(db));
    const row = await db
      .selectFrom("prompt_queue")
      .select(["id", "origin_kind", "content"])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id: "q1", origin_kind: "user", content: "prompt" });
  });
});
