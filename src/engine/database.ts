import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  SqliteDialect,
  sql,
  type KyselyConfig,
  type SqliteDatabase,
  type SqliteStatement,
  type Transaction,
} from "kysely";
import { migrations } from "../../db/migrations/index.js";
import { YIELDING_BUSY_TIMEOUT_MS, YieldingSqliteDialect } from "./busyRetry.js";
import { PostgresIdentityPlugin, postgresDialect } from "./postgres.js";
import type { DB } from "./schema.js";

/** The engine's database handle. */
export type Database = Kysely<DB>;
/** A handle usable inside a transaction (same query API). */
export type Tx = Kysely<DB> | Transaction<DB>;
/** A column the database fills (a default, an identity): for the tables a front end adds to `DB`. */
export type { Generated } from "kysely";

/**
 * A front end's own bookkeeping for a subject it creates (where the subject lives there), written
 * in the transaction that creates it: whatever reads the subject afterwards (a notifier in another
 * process) finds the front end's rows with it, and a crash keeps both or neither.
 */
export type OnCreated = (trx: Tx, subjectId: string) => Promise<void>;

/**
 * How a connection waits for another process's write lock: `block` in SQLite for up to 5 s (CLI,
 * workers), or `yield`: try again asynchronously, the event loop free (the bot, whose acks must
 * not wait behind a lock; see busyRetry.ts).
 */
export type BusyMode = "block" | "yield";

/** Which database the engine runs on: an SQLite file (the default) or a PostgreSQL server. */
export type DatabaseTarget = { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };

/** The SQL dialect of an open handle. */
export type Dialect = DatabaseTarget["dialect"];

/** A string names a PostgreSQL database when it is a postgres:// URL, else an SQLite file. */
const targetOf = (where: string | DatabaseTarget): DatabaseTarget =>
  typeof where !== "string"
    ? where
    : /^postgres(?:ql)?:\/\//.test(where)
      ? { dialect: "postgres", url: where }
      : { dialect: "sqlite", file: where };

/**
 * Opens the engine's database: a file path (or an SQLite target) opens SQLite with the
 * per-connection settings every process needs; a PostgreSQL target (or a postgres:// URL) opens a
 * pool (numbers parsed, see postgres.ts). `busy` concerns SQLite only: PostgreSQL waits for locks
 * without blocking the event loop.
 */
export function openDatabase(
  where: string | DatabaseTarget,
  opts: { log?: KyselyConfig["log"]; busy?: BusyMode } = {},
): Database {
  const target = targetOf(where);
  if (target.dialect === "postgres") {
    const db = new Kysely<DB>({ dialect: postgresDialect(target.url), log: opts.log });
    postgresUrls.set(db, target.url);
    return db;
  }
  const file = target.file;
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

const postgresUrls = new WeakMap<Database, string>();

/** Where a PostgreSQL handle connects (its wake-up listener opens a client of its own there). */
export function postgresUrlOf(db: Database): string | undefined {
  return postgresUrls.get(db);
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

/**
 * What a unique constraint violation names, or null when `err` is none: on SQLite the text after
 * "UNIQUE constraint failed: " (`projects.name`, `index 'uq_…'`), on PostgreSQL (SQLSTATE 23505)
 * the constraint or index name (`projects_name_key`, `uq_…`). Callers match either.
 */
export function uniqueViolationOf(err: unknown): string | null {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (e?.code === "23505") return typeof e.constraint === "string" ? e.constraint : "";
  const m = /UNIQUE constraint failed: (.*)$/i.exec(typeof e?.message === "string" ? e.message : "");
  return m ? (m[1] ?? "") : null;
}

/** The dialect a handle (or a transaction of it) speaks. */
export function dialectOf(db: Kysely<unknown> | Tx): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** The handle a migration's `up` runs on: on PostgreSQL, through PostgresIdentityPlugin. */
export function migrationHandle(db: Kysely<unknown>): Kysely<unknown> {
  return dialectOf(db) === "postgres" ? db.withPlugin(new PostgresIdentityPlugin()) : db;
}

/**
 * Runs migrations up to the latest (or to `target`); throws with the failing migration named.
 * On PostgreSQL the landed migrations run through PostgresIdentityPlugin (identity columns for
 * `autoIncrement`), each in its own transaction under kysely's migration lock; SQLite gets the very
 * statements it always got (test/engine/migrationStatements.test.ts).
 */
export async function migrate(db: Kysely<unknown>, target?: string): Promise<string[]> {
  const migrator = new Migrator({
    db: migrationHandle(db),
    provider: { getMigrations: async () => migrations },
  });
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

/**
 * Migrates to the latest unless every landed migration is already applied. A database is almost
 * always up to date when a process opens it (each CLI command, `serve`, a test's copy of the
 * migrated template), and the migrator costs a dozen statements, its lock table and an ICU
 * collator (it sorts the names with `localeCompare`) for nothing then: one read of its table
 * answers instead. Anything else (a new database, one behind, one a newer codexpi migrated) goes
 * through the migrator, which applies what is missing or refuses what it does not know.
 */
export async function migrateIfBehind(db: Kysely<unknown>): Promise<string[]> {
  return (await allApplied(db)) ? [] : migrate(db);
}

/** Whether the migrator's table lists exactly the landed migrations. */
async function allApplied(db: Kysely<unknown>): Promise<boolean> {
  const landed = Object.keys(migrations);
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return rows.length === landed.length && landed.every((name) => applied.has(name));
  } catch {
    return false; // no table yet: a new database, the migrator creates it
  }
}

/** Opens and migrates in one step: what tests and the CLI usually want. */
export async function openMigrated(
  target: string | DatabaseTarget,
  opts: { busy?: BusyMode } = {},
): Promise<Database> {
  const db = openDatabase(target, opts);
  await migrateIfBehind(db as unknown as Kysely<unknown>);
  return db;
}

/**
 * The advisory lock a PostgreSQL write transaction takes when it names no narrower locks: one key
 * for the whole database (an arbitrary constant, "codexpi" in ASCII), which reproduces SQLite's
 * single writer among the transactions that take it.
 */
const WRITE_LOCK_KEY = 0x636f64657870;

/**
 * The space of keyed advisory locks (`pg_advisory_xact_lock(int4, int4)`: the two-key form, which
 * never conflicts with the one-key WRITE_LOCK_KEY), "cdxp" in ASCII.
 */
const KEYED_LOCK_SPACE = 0x63647870;

/** A keyed advisory lock: the name of one invariant that a transaction must hold alone. */
export type WriteLock = { readonly advisory: string };

/**
 * The lock of the concurrency limit of one placement (null: the coordinator's own machine): the
 * running count read against `max_concurrent` and the project overrides, and the claims it allows.
 */
export const claimLock = (placement: string | null): WriteLock => ({
  advisory: `claims:${placement ?? ""}`,
});

/** The lock of one lease row (read the holder, then take or renew it). */
export const leaseLock = (name: string): WriteLock => ({ advisory: `lease:${name}` });

/** The lock of one worker host's name (read who holds it, then register). */
export const hostLock = (name: string): WriteLock => ({ advisory: `host:${name}` });

/** The lock of one stored file (its old rows deleted, its new ones written: see files/transfer.ts). */
export const fileLock = (owner: string, name: string): WriteLock => ({ advisory: `file:${owner}/${name}` });

/** What a write transaction serialises against (see writeTransaction). */
export interface WriteScope {
  /**
   * On PostgreSQL: absent, the global lock; a list (maybe empty), only these keyed locks, besides
   * the row locks its own statements take. SQLite ignores it: every write transaction is exclusive.
   */
  locks?: readonly WriteLock[];
}

/** SQLSTATEs after which PostgreSQL asks the client to run the transaction again. */
const RETRYABLE = new Set(["40P01", "40001"]); // deadlock_detected, serialization_failure
const MAX_ATTEMPTS = 5;

/**
 * Runs `fn` as a write transaction, in every process (bot, workers, CLI) alike. What it serialises
 * against depends on `scope` on PostgreSQL; on SQLite it is always everything.
 *
 * - SQLite: `BEGIN IMMEDIATE`, the file's write lock taken up front (busy waits as configured:
 *   blocking, or yielding in the bot, see busyRetry.ts), whatever `scope` says: from its first
 *   statement on, no other write transaction runs.
 * - PostgreSQL, no `scope.locks` (the default): a transaction (READ COMMITTED) whose first statement
 *   takes the global transaction-scoped advisory lock, released at commit or rollback. It excludes
 *   every other transaction that takes it (every call site not yet proven safe without), not the
 *   scoped ones below; each later statement reads a fresh snapshot.
 * - PostgreSQL, `scope.locks` given: the keyed advisory locks named there (in a fixed order, so two
 *   scopes never wait on each other in a cycle), then `fn`, under READ COMMITTED. What else keeps it
 *   correct is the caller's to state: guarded moves (`UPDATE … WHERE id = ? AND status = ?`, the
 *   row lock and the re-check), row locks (`FOR UPDATE`, `lockConversation`), unique indexes.
 *   `claimLock`, `leaseLock` and `hostLock` are the invariants that need a key (a key is hashed
 *   to 32 bits: two names that collide merely share a lock).
 *
 * A global transaction that must not interleave with a scoped one takes that one's locks as well
 * (`takeLocks`, row locks): moving a project or changing its host takes both placements' claim
 * locks; removing a project locks its row and its conversations' rows. Order, to keep cycles rare:
 * the global key, keyed locks, queue item rows, then conversation rows.
 *
 * On PostgreSQL a transaction that dies of a deadlock or a serialisation failure runs again (up to
 * 5 times): `fn` must therefore only touch the database (it does anyway: never await I/O there).
 * Inside, use only the handle given to `fn` (on SQLite the one connection is taken; on PostgreSQL
 * another pooled connection would not see the uncommitted writes).
 */
export async function writeTransaction<T>(
  db: Database,
  fn: (trx: Kysely<DB>) => Promise<T>,
  scope: WriteScope = {},
): Promise<T> {
  if (dialectOf(db) === "postgres") {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(async (trx) => {
          if (scope.locks) await takeLocks(trx, scope.locks);
          else await sql`select pg_advisory_xact_lock(${sql.lit(WRITE_LOCK_KEY)})`.execute(trx);
          return fn(trx);
        });
      } catch (err) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has((err as { code?: string }).code ?? "")) throw err;
      }
    }
  }
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

/**
 * Takes keyed locks inside a running write transaction (PostgreSQL; SQLite holds the file
 * already), in a fixed order, until it ends: for a transaction that learns which keys it needs
 * only after a read (moveProject: the placements of the project it read).
 */
export async function takeLocks(trx: Kysely<DB>, locks: readonly WriteLock[]): Promise<void> {
  if (dialectOf(trx) !== "postgres") return;
  for (const key of [...new Set(locks.map((l) => l.advisory))].sort())
    await sql`select pg_advisory_xact_lock(${sql.lit(KEYED_LOCK_SPACE)}, hashtext(${key}))`.execute(trx);
}
