import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { systemClock } from "../../src/engine/clock.js";
import { openDatabase, type Database } from "../../src/engine/database.js";
import { makeCodexHome } from "../support/codexHome.js";
import { killRecorded } from "../support/codexEngine.js";
import { tempDir } from "../support/engine.js";
import { startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { testDatabase, type TestDatabase } from "../support/testDatabase.js";

// Run by the postgres project only (vitest.config.ts): the CLI and its worker on DATABASE_URL=postgres://….

const CLI = path.resolve("dist/bin/main.js");

describe("codexpi CLI on PostgreSQL (real binary, fake model)", () => {
  let fake: FakeModel | undefined;
  let dir: string;
  let database: TestDatabase | undefined;
  let db: Database | undefined;

  afterEach(async () => {
    if (db) {
      await killRecorded(db);
      await db.destroy();
      db = undefined;
    }
    await database?.drop();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("migrate, project add and ask --wait work on DATABASE_URL=postgres://…, and never print its password", async () => {
    fake = await startFakeModel();
    const home = await makeCodexHome(fake.url);
    dir = tempDir();
    fs.mkdirSync(path.join(dir, "demo"));
    database = await testDatabase(dir);
    expect(database.target.dialect).toBe("postgres");
    const url = database.env.DATABASE_URL as string;
    const password = decodeURIComponent(new URL(url).password);
    const env = {
      ...home.env,
      CODEXPI_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: url,
      LOG_LEVEL: "debug",
      NO_PROXY: "127.0.0.1,localhost",
    };
    const cli = (...args: string[]) =>
      execa(process.execPath, [CLI, ...args], { env, reject: false, timeout: 60_000 });
    fake.enqueue({ kind: "text", text: "Réponse depuis PostgreSQL 4412" });

    const migrated = await cli("migrate");
    expect(migrated.exitCode).toBe(0);
    const added = await cli("project", "add", "demo", path.join(dir, "demo"));
    expect(added.exitCode).toBe(0);
    db = openDatabase(database.target);
    await updateGlobalPolicy(
      db,
      systemClock,
      {
        max_concurrent: 4,
        load_pause_percent: 1000,
        memory_pause_percent: 100,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "test",
    );
    const asked = await cli("ask", "demo", "hello", "--wait");
    expect(asked.stdout.trim()).toBe("Réponse depuis PostgreSQL 4412");
    expect(asked.exitCode).toBe(0);

    // The engine's rows are in PostgreSQL (the worker wrote the outcome there), none in SQLite.
    const item = await db.selectFrom("prompt_queue").select(["status", "seq"]).executeTakeFirstOrThrow();
    expect(item).toEqual({ status: "done", seq: 1 });
    expect(fs.existsSync(path.join(dir, "data", "codexpi.db"))).toBe(false);
    // Whatever the CLI and its worker printed or logged, the password is not in it.
    const logs = fs.existsSync(path.join(dir, "data", "logs"))
      ? fs
          .readdirSync(path.join(dir, "data", "logs"))
          .map((f) => fs.readFileSync(path.join(dir, "data", "logs", f), "utf8"))
      : [];
    for (const text of [migrated.stdout, migrated.stderr, added.stdout, asked.stdout, asked.stderr, ...logs])
      expect(text).not.toContain(password);
    expect(logs.length).toBeGreaterThan(0); // positive control: the worker did write a log
  });
});
