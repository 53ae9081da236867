import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/engine/database.js";

/** The dialect this test process runs the engine on: `CODEXPI_TEST_DB=sqlite|postgres` (set per vitest project). */
export const TEST_DIALECT: DatabaseTarget["dialect"] =
  process.env.CODEXPI_TEST_DB === "postgres" ? "postgres" : "sqlite";

/** The migrated database every PostgreSQL test database is copied from (postgresGlobalSetup.ts). */
export const PG_TEMPLATE_DATABASE = "codexpi_template";

/** `url` pointing at another database of the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

let admin: pg.Pool | null = null;
function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: inject("pgAdminUrl"), max: 2, allowExitOnIdle: true });
  return admin;
}

/**
 * Copying the template takes ~30 ms (FILE_COPY, below), more on a loaded machine: the next test's
 * database is made while this test runs (one ahead per test file; postgresSetupFile.ts drops the
 * one left over).
 */
let ahead: Promise<string> | null = null;

async function createDatabase(): Promise<string> {
  const name = `t_${randomBytes(8).toString("hex")}`;
  // FILE_COPY copies the template's files; PostgreSQL's default (WAL_LOG) writes every page of it
  // through the WAL: 43 to 190 ms of the server's CPU per database against 25 ms, for ~620 tests.
  await adminPool().query(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE_DATABASE} STRATEGY FILE_COPY`);
  return name;
}

function nextDatabase(): Promise<string> {
  // Taken and replaced before any await: tests running at once (describe.concurrent) each get
  // a database of their own.
  const mine = ahead ?? createDatabase();
  ahead = createDatabase();
  ahead.catch(() => undefined); // its failure is reported by the test that waits for it
  return mine;
}

/** Drops the database made ahead for a test that never came (end of a test file). */
export async function dropDatabaseAhead(): Promise<void> {
  const pending = ahead;
  ahead = null;
  const name = await pending?.catch(() => null);
  if (name) await adminPool().query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
  admin = null;
}

/** A database of its own for one test, and how to get rid of it. */
export interface TestDatabase {
  target: DatabaseTarget;
  /** Environment naming it for a config (and the workers a test spawns): empty on SQLite. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test, on the dialect of this run: on SQLite the config's default file
 * under `dir` (exactly what tests always used), already migrated (a copy of the run's template);
 * on PostgreSQL a new database copied from the
 * migrated template, so that tests and test files stay independent and may run in parallel.
 */
export async function testDatabase(dir: string): Promise<TestDatabase> {
  if (TEST_DIALECT === "sqlite") {
    const file = path.join(dir, "data", "codexpi.db");
    // A copy of the migrated template (sqliteGlobalSetup.ts), when the run made one.
    const template = inject("sqliteTemplate");
    if (template && !fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(template, file);
    }
    return { target: { dialect: "sqlite", file }, env: {}, drop: async () => undefined };
  }
  const name = await nextDatabase();
  const url = withDatabase(inject("pgAdminUrl"), name);
  return {
    target: { dialect: "postgres", url },
    env: { DATABASE_URL: url },
    drop: async () => {
      await adminPool().query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * An empty, unmigrated database for one test, on the dialect of this run (a migration test takes
 * it to an earlier migration, fills it, then migrates it on): a new file under `dir` on SQLite, a
 * new database (not the template's copy) on PostgreSQL.
 */
export async function emptyTestDatabase(dir: string): Promise<TestDatabase> {
  if (TEST_DIALECT === "sqlite")
    return {
      target: { dialect: "sqlite", file: path.join(dir, "empty.db") },
      env: {},
      drop: async () => undefined,
    };
  const name = `e_${randomBytes(8).toString("hex")}`;
  await adminPool().query(`CREATE DATABASE ${name}`);
  const url = withDatabase(inject("pgAdminUrl"), name);
  return {
    target: { dialect: "postgres", url },
    env: { DATABASE_URL: url },
    drop: async () => {
      await adminPool().query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
