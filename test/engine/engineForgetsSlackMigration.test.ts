import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import * as m0017 from "../../db/migrations/0017_engine_forgets_slack.js";
import { SlackAddresses } from "../../src/bot/store/addresses.js";
import { FakeClock } from "../../src/engine/clock.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { channelsOpenToMembers } from "../../src/engine/projects/index.js";
import { tempDir } from "../support/engine.js";
import { emptyTestDatabase, type TestDatabase } from "../support/testDatabase.js";

// Both dialects: a database at 0016 with Slack addresses in the engine's columns, migrated to 0017.

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

/** Inserts a row giving every NOT NULL column without a default a placeholder, then `values`. */
async function insertRow(db: Database, table: string, values: Record<string, string | number | null>) {
  const columns = (await asUnknown(db).introspection.getTables()).find((t) => t.name === table)!.columns;
  const row: Record<string, string | number | null> = {};
  for (const c of columns)
    if (!c.isNullable && !c.hasDefaultValue && !c.isAutoIncrementing)
      row[c.name] = /int|numeric/i.test(c.dataType) ? 0 : "x";
  Object.assign(row, values);
  const names = Object.keys(row);
  await sql`insert into ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))}) values (${sql.join(names.map((n) => row[n]))})`.execute(
    db,
  );
}

const columnsOf = async (db: Database, table: string) =>
  (await asUnknown(db).introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);

/** Rows as 0016 held them: addresses in the engine's columns, one already in the bot's table. */
async function fillAt0016(db: Database): Promise<void> {
  await insertRow(db, "projects", {
    id: "p1",
    name: "demo",
    path: "/tmp/demo",
    role: "project",
    visibility: "channel",
    slack_channel_id: "CHOME",
  });
  const conversation = (
    id: string,
    channel: string | null,
    thread: string | null,
    status: string | null,
    origin: string | null,
  ) =>
    insertRow(db, "conversations", {
      id,
      project_id: "p1",
      slack_channel_id: channel,
      slack_thread_ts: thread,
      slack_status_ts: status,
      slack_origin: origin,
      created_at: 5,
    });
  await conversation("ask", "C1", null, null, "command"); // posted: its address is the bot's already
  await conversation("mention", "C1", "200.1", null, "mention"); // not posted yet
  await conversation("dm", "D1", "300.1", null, "dm");
  await conversation("queued-ask", "C1", null, null, "command"); // its root not posted yet
  await conversation("cli", null, null, null, null);
  await insertRow(db, "slack_addresses", {
    subject_kind: "conversation",
    subject_id: "ask",
    channel_id: "C1",
    thread_ts: "100.1",
    status_ts: "100.1",
    updated_at: 6,
  });
  const run = (id: string, thread: string | null) =>
    insertRow(db, "remediation_runs", {
      id,
      owner_id: "U1",
      master_project_id: "p1",
      status: "COMPLETED",
      slack_channel_id: "C2",
      slack_thread_ts: thread,
      created_at: 6,
    });
  await run("r1", "400.1");
  await run("r2", null);
  await insertRow(db, "orchestrations", {
    id: "o1",
    project_id: "p1",
    slack_channel_id: "C3",
    slack_thread_ts: null,
    created_at: 7,
  });
}

describe("migration 0017: the engine forgets Slack", () => {
  let target: TestDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    await target?.drop();
    db = target = undefined;
  });

  it("the bot finds the same addresses in its own table, with their origins; the engine keeps no Slack column, and its projects their home channel", async () => {
    target = await emptyTestDatabase(tempDir());
    db = openDatabase(target.target);
    await migrate(asUnknown(db), "0016_queue_sequence");
    await fillAt0016(db);
    expect(await columnsOf(db, "conversations")).toContain("slack_thread_ts"); // positive control

    await migrate(asUnknown(db));
    const addresses = new SlackAddresses(db, new FakeClock());
    const found = async () => ({
      ask: await addresses.get("conversation", "ask"),
      mention: await addresses.get("conversation", "mention"),
      dm: await addresses.get("conversation", "dm"),
      queuedAsk: await addresses.get("conversation", "queued-ask"),
      r1: await addresses.get("run", "r1"),
      r2: await addresses.get("run", "r2"),
      o1: await addresses.get("orchestration", "o1"),
      inSlack: [
        ...(await addresses.addressed("conversation", ["ask", "mention", "dm", "queued-ask", "cli"])),
      ].sort(),
      threadOfMention: await addresses.subjectOfThread("conversation", "C1", "200.1"),
      threadOfAsk: await addresses.subjectOfThread("conversation", "C1", "100.1"),
    });
    const expected = {
      ask: { channel: "C1", threadTs: "100.1", statusTs: "100.1", origin: "command" },
      mention: { channel: "C1", threadTs: "200.1", statusTs: null, origin: "mention" },
      dm: { channel: "D1", threadTs: "300.1", statusTs: null, origin: "dm" },
      queuedAsk: { channel: "C1", threadTs: null, statusTs: null, origin: "command" },
      r1: { channel: "C2", threadTs: "400.1", statusTs: "400.1", origin: null },
      r2: { channel: "C2", threadTs: null, statusTs: null, origin: null },
      o1: { channel: "C3", threadTs: null, statusTs: null, origin: null },
      inSlack: ["ask", "dm", "mention", "queued-ask"],
      threadOfMention: "mention",
      threadOfAsk: "ask",
    };
    expect(await found()).toEqual(expected);

    for (const table of ["conversations", "remediation_runs", "orchestrations", "projects"])
      expect((await columnsOf(db, table)).filter((c) => c.startsWith("slack_"))).toEqual([]);
    expect(await columnsOf(db, "conversations")).toContain("codex_thread_id");
    expect(await db.selectFrom("projects").select("channel_id").executeTakeFirst()).toEqual({
      channel_id: "CHOME",
    });
    expect(await channelsOpenToMembers(db)).toEqual(["CHOME"]);

    await m0017.up(asUnknown(db)); // a migration interrupted half-way simply runs again
    expect(await found()).toEqual(expected);
  });
});
