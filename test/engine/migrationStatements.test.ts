import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Kysely, LogEvent } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../src/engine/database.js";

const RECORDED = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "fixtures/migrations.sqlite.json",
);

/** Timestamps the migrator writes into its own table: the only part that differs between runs. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** Every statement migrating a new SQLite database sends, in order, with its parameters. */
async function sqliteStatements(): Promise<Array<{ sql: string; parameters: unknown[] }>> {
  const seen: Array<{ sql: string; parameters: unknown[] }> = [];
  const log = (e: LogEvent) => {
    seen.push({
      sql: e.query.sql,
      parameters: e.query.parameters.map((p) => (typeof p === "string" && ISO_TIME.test(p) ? "<time>" : p)),
    });
  };
  const db = openDatabase(":memory:", { log });
  try {
    await migrate(db as unknown as Kysely<unknown>);
  } finally {
    await db.destroy();
  }
  return seen;
}

describe("migrations on SQLite", () => {
  it("send exactly the statements recorded before PostgreSQL support (SQLite gets what it got)", async () => {
    const now = await sqliteStatements();
    if (process.env.CODEXPI_RECORD_MIGRATIONS === "1")
      fs.writeFileSync(RECORDED, `${JSON.stringify(now, null, 1)}\n`);
    const recorded = JSON.parse(fs.readFileSync(RECORDED, "utf8")) as unknown[];
    expect(recorded.length).toBeGreaterThan(100); // positive control: the record holds the DDL
    expect(now).toEqual(recorded);
  });
});
