import { SqliteDialect, type DatabaseConnection, type Driver, type SqliteDialectConfig } from "kysely";

/** How long a statement keeps trying while another process holds the write lock. */
const BUSY_DEADLINE_MS = 60_000;
/** The synchronous wait SQLite itself may spend per try (`busy_timeout`) in a yielding connection. */
export const YIELDING_BUSY_TIMEOUT_MS = 10;

const isBusy = (err: unknown) => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A SQLite dialect whose statements wait for a lock held by another process without blocking the
 * event loop. better-sqlite3 is synchronous: with the usual `busy_timeout` of seconds, a foreign
 * writer holding the lock freezes the whole process — in the bot, every ack behind it. Here
 * SQLite gives up after `YIELDING_BUSY_TIMEOUT_MS` (set by the caller) and the statement is tried
 * again after an asynchronous pause, for up to `BUSY_DEADLINE_MS`. A statement that failed with
 * SQLITE_BUSY changed nothing, so trying it again is safe, `BEGIN IMMEDIATE` included. Kysely
 * keeps the one connection for the waiting query meanwhile: other queries queue behind it, the
 * event loop does not.
 */
export class YieldingSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly deadlineMs = BUSY_DEADLINE_MS,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const deadlineMs = this.deadlineMs;
    const yielding = (conn: DatabaseConnection): DatabaseConnection => {
      let w = wrapped.get(conn);
      if (!w) {
        w = {
          async executeQuery(query) {
            const started = Date.now();
            for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
              try {
                return await conn.executeQuery(query);
              } catch (err) {
                if (!isBusy(err) || Date.now() - started > deadlineMs) throw err;
                await sleep(pause);
              }
            }
          },
          streamQuery: (query, chunkSize) => conn.streamQuery(query, chunkSize),
        };
        wrapped.set(conn, w);
      }
      return w;
    };
    // The driver keeps private fields: its own methods must run on it, not on the proxy.
    return new Proxy(driver, {
      get(target, prop) {
        if (prop === "acquireConnection") return async () => yielding(await target.acquireConnection());
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}
