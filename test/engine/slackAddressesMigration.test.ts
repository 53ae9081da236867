import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import * as m0009 from "../../db/migrations/0009_slack_addresses.js";
import { migrate, openDatabase, type Database } from "../../src/engine/database.js";
import { tempDir } from "../support/engine.js";

const asUnknown = (db: Database) => db as unknown as Kysely<unknown>;

/** Inserts a row giving every NOT NULL column without a default a placeholder, then `values`. */
async function insertRow(
  db: Database,
  table: string,
  values: Record<string, string | number | null>,
): Promise<void> {
  const columns = (
    await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: unknown;
    }>`select * from pragma_table_info(${table})`.execute(db)
  ).rows;
  const row: Record<string, string | number | null> = {};
  for (const c of columns)
    if (c.notnull && c.dflt_value === null) row[c.name] = /int/i.test(c.type) ? 0 : "x";
  Object.assign(row, values);
  const names = Object.keys(row);
  await sql`insert into ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))}) values (${sql.join(names.map((n) => row[n]))})`.execute(
    db,
  );
}

describe("migration 0009: Slack addresses", () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it("copies the addresses the domain tables hold, so existing threads keep working; runs again without change", async () => {
    db = openDatabase(path.join(tempDir(), "addresses.db"));
    await migrate(asUnknown(db), "0007_flow_threads");
    await insertRow(db, "projects", { id: "p1", name: "demo", path: "/tmp/demo", role: "project" });
    const conversation = (
      id: string,
      channel: string | null,
      thread: string | null,
      status: string | null,
      origin: string | null,
    ) =>
      insertRow(db!, "conversations", {
        id,
        project_id: "p1",
        slack_channel_id: channel,
        slack_thread_ts: thread,
        slack_status_ts: status,
        slack_origin: origin,
        created_at: 5,
      });
    await conversation("ask", "C1", "100.1", "100.1", "command");
    await conversation("mention", "C1", "200.1", "200.2", "mention");
    await conversation("cli", null, null, null, null);
    await conversation("not-posted-yet", "C1", null, null, "command");
    await insertRow(db, "remediation_runs", {
      id: "r1",
      owner_id: "U1",
      master_project_id: "p1",
      slack_channel_id: "C2",
      slack_thread_ts: "300.1",
      created_at: 6,
    });
    await insertRow(db, "remediation_runs", {
      id: "r2",
      owner_id: "U1",
      master_project_id: "p1",
      status: "COMPLETED",
      slack_channel_id: null,
      slack_thread_ts: null,
      created_at: 6,
    });
    await insertRow(db, "orchestrations", {
      id: "o1",
      project_id: "p1",
      slack_channel_id: "C3",
      slack_thread_ts: "400.1",
      created_at: 7,
    });

    await migrate(asUnknown(db), "0016_queue_sequence"); // 0017 drops the old columns (its own test)
    const read = () =>
      db!
        .selectFrom("slack_addresses")
        .select(["subject_kind", "subject_id", "channel_id", "thread_ts", "status_ts"])
        .orderBy("subject_kind")
        .orderBy("subject_id")
        .execute();
    const expected = [
      {
        subject_kind: "conversation",
        subject_id: "ask",
        channel_id: "C1",
        thread_ts: "100.1",
        status_ts: "100.1",
      },
      {
        subject_kind: "conversation",
        subject_id: "mention",
        channel_id: "C1",
        thread_ts: "200.1",
        status_ts: "200.2",
      },
      {
        subject_kind: "orchestration",
        subject_id: "o1",
        channel_id: "C3",
        thread_ts: "400.1",
        status_ts: "400.1",
      },
      { subject_kind: "run", subject_id: "r1", channel_id: "C2", thread_ts: "300.1", status_ts: "300.1" },
    ];
    expect(await read()).toEqual(expected);
    await m0009.up(asUnknown(db)); // idempotent: a migration interrupted half-way simply runs again
    expect(await read()).toEqual(expected);
    // Additive: the old columns are still there, untouched.
    const old = await db
      .selectFrom("conversations")
      .select(["slack_thread_ts", "slack_status_ts"])
      .where("id", "=", "ask")
      .executeTakeFirstOrThrow();
    expect(old).toEqual({ slack_thread_ts: "100.1", slack_status_ts: "100.1" });
  });
});
