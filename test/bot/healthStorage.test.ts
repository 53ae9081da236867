import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Health } from "../../src/bot/health.js";
import { openDatabase, type Database } from "../../src/engine/database.js";
import { Engine } from "../../src/engine/engine.js";
import type { DB } from "../../src/engine/schema.js";
import { probeDisk } from "../../src/engine/storage.js";
import { recordingSpawner, testEngine } from "../support/engine.js";

/**
 * A handle on the test's database that reads and cannot write: a read-only SQLite connection, or
 * PostgreSQL sessions whose transactions are read-only (a standby, a revoked grant).
 */
function readOnlyHandle(env: Awaited<ReturnType<typeof testEngine>>): Database {
  const target = env.config.database;
  if (target.dialect === "sqlite")
    return new Kysely<DB>({
      dialect: new SqliteDialect({ database: new SQLite(target.file, { readonly: true }) }),
    });
  const url = new URL(target.url);
  url.searchParams.set("options", "-c default_transaction_read_only=on");
  return openDatabase({ dialect: "postgres", url: url.toString() });
}

const enospc = () => {
  throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
};

describe("health of the disk and the database", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("a disk that refuses writes (ENOSPC) or has little room left fails health, naming the data directory", async () => {
    env = await testEngine();
    await env.engine.tick();
    const full = await new Health(env.engine, [], 30_000, { write: enospc }).report();
    expect(full.ok).toBe(false);
    expect(full.failing).toContain("disk");
    expect(full.disk.problem).toContain(`cannot write in ${env.config.dataDir}: ENOSPC`);
    const low = await new Health(env.engine, [], 30_000, {
      statfs: () => ({ bavail: 10, bsize: 4096 }),
    }).report();
    expect(low.failing).toContain("disk");
    expect(low.disk.free_bytes).toBe(40_960);
    // Control: the real disk of the test machine is fine.
    const fine = await new Health(env.engine, [], 30_000, { minFreeBytes: 1 }).report();
    expect(fine.failing).not.toContain("disk");
    expect(fine.database_writable).toBe(true);
    expect(probeDisk(env.config.dataDir, { minFreeBytes: 1 }).problem).toBeNull();
  });

  it("a database that reads but cannot write fails health as database_readonly", async () => {
    env = await testEngine();
    const readonly = readOnlyHandle(env);
    try {
      const engine = new Engine({ config: env.config, db: readonly, spawner: recordingSpawner() });
      const report = await new Health(engine, [], 30_000, { minFreeBytes: 1 }).report();
      expect(report.database).toBe(true);
      expect(report.database_writable).toBe(false);
      expect(report.failing).toContain("database_readonly");
    } finally {
      await readonly.destroy();
    }
  });
});
