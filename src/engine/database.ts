import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  Migrator,
  SqliteDialect,
  sql,
  type KyselyConfig,
  type SqliteDatabase,
  type SqliteStatement,
  type Transaction,
} from "kysely";
import { migrations } from "../../db/migrations/index.js";
import { YIELDING_BUSY_TIMEOUT_MS, YieldingSqliteDialect } from "./busyRetry.js";
import type { DB } from "./schema.js";

/** The engine's database handle. */
export type Database = Kysely<DB>;
/** A handle usable inside a transaction (same query API). */
export type Tx = Kysely<DB> | Transaction<DB>;

/**
 * How a connection waits for another process's write lock: `block` in SQLite for up to 5 s (CLI,
 * workers), or `yield`: try again asynchronously, the event loop free (the bot, whose acks must
 * not wait behind a lock; see busyRetry.ts).
 */
export type BusyMode = "block" | "yield";

/** Opens the SQLite database with the per-connection settings every process needs. */
export function openDatabase(
  file: string,
  opts: { log?: KyselyConfig["log"]; busy?: BusyMode } = {},
): Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL, busy timeout and foreign keys are per connection: bot, workers and CLI all set them.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${opts.busy === "yield" ? YIELDING_BUSY_TIMEOUT_MS : 5000}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<DB>({
    dialect:
      opts.busy === "yield"
        ? new YieldingSqliteDialect({ database: withStatementCache(sqlite) })
        : new SqliteDialect({ database: withStatementCache(sqlite) }),
    log: opts.log,
  });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running most of our queries. The
 * SQL text of a query builder is stable (values are parameters), so prepared statements are kept
 * (least recently used out first). Statements are not re-entrant while iterating, but kysely
 * runs one query at a time per connection.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text); // re-inserted below: most recently used last
      } else {
        stmt = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, stmt);
      return stmt as unknown as SqliteStatement;
    },
  };
}

/** Runs migrations up to the latest (or to `target`); throws with the failing migration named. */
export async function migrate(db: Kysely<unknown>, target?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new Error(
      `migration ${failed?.migrationName ?? "?"} failed: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Opens and migrates in one step: what tests and the CLI usually want. */
export async function openMigrated(file: string, opts: { busy?: BusyMode } = {}): Promise<Database> {
  const db = openDatabase(file, opts);
  await migrate(db as unknown as Kysely<unknown>);
  return db;
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a
 * read-then-write across processes (slot claims, leases, outcomes) cannot interleave with
 * another process's. Inside, use only the handle given to `fn`; never await I/O there.
 */
export async function writeTransaction<T>(db: Database, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}
