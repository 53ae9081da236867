import { EventEmitter } from "node:events";
import { sql, type Kysely } from "kysely";
import { createRequire } from "node:module";
import type pg from "pg";
import { dialectOf, postgresUrlOf, type Database, type Tx } from "./database.js";

// pg is required when PostgreSQL's wake-ups start, not at every CLI start-up on SQLite.
const require = createRequire(import.meta.url);

/**
 * What a wake-up says changed: work was queued (`enqueue`), a turn finished (`finish`), the outbox
 * has events (`outbox`), a stop was asked (`cancel`, payload: the queue id), a decision or an
 * approval was answered (`answers`, payload: its id). A wake-up only says "look now": every
 * listener re-reads the database, and keeps its poll as a slow safety net (a wake-up may be lost).
 */
export type WakeChannel = "enqueue" | "finish" | "outbox" | "cancel" | "answers";

const CHANNELS: readonly WakeChannel[] = ["enqueue", "finish", "outbox", "cancel", "answers"];
/** PostgreSQL channel names: prefixed, so that nothing else on the server is woken by ours. */
const pgChannel = (c: WakeChannel) => `codexpi_${c}`;

/** Receives the wake-ups of one database, in this process. */
export interface Wakeups {
  /** Calls `fn` on each wake-up of `channel`; returns the unsubscribe. */
  on(channel: WakeChannel, fn: (payload: string) => void): () => void;
  /** Resolves once wake-ups are received (PostgreSQL: the first `LISTEN` is done, or failed). */
  ready(): Promise<void>;
  /** Stops listening (the handle itself is closed by its owner). */
  close(): Promise<void>;
}

/**
 * Announces a change made in `trx`. On PostgreSQL a `NOTIFY` inside that transaction: it reaches
 * every listening process only once the transaction commits, never for a rollback. On SQLite the
 * wake-up stays in this process (other processes keep polling): it is fired after the current
 * turn of the event loop, and its listeners read through the same one connection, behind the
 * transaction, so they see its commit.
 */
export async function announce(trx: Tx, channel: WakeChannel, payload = ""): Promise<void> {
  if (dialectOf(trx) === "postgres") {
    await sql`select pg_notify(${pgChannel(channel)}, ${payload})`.execute(trx);
    return;
  }
  setImmediate(() => localBus.emit(channel, payload));
}

/** SQLite's wake-ups: one bus per process (a stray wake-up costs one extra read, nothing more). */
const localBus = new EventEmitter().setMaxListeners(0);

const registry = new WeakMap<Kysely<unknown>, Wakeups>();

/**
 * The wake-ups of `db` in this process, made on first use: the in-process bus on SQLite, a
 * dedicated `LISTEN` connection on PostgreSQL (opened once, closed with `closeWakeups`).
 */
export function wakeupsOf(db: Database): Wakeups {
  const known = registry.get(db as Kysely<unknown>);
  if (known) return known;
  const url = postgresUrlOf(db);
  const made = url ? new PostgresWakeups(url) : localWakeups();
  registry.set(db as Kysely<unknown>, made);
  return made;
}

/** Closes `db`'s listener if one was made (before `db.destroy()`). */
export async function closeWakeups(db: Database): Promise<void> {
  const w = registry.get(db as Kysely<unknown>);
  registry.delete(db as Kysely<unknown>);
  await w?.close();
}

function localWakeups(): Wakeups {
  const mine: Array<[WakeChannel, (p: string) => void]> = [];
  return {
    on(channel, fn) {
      localBus.on(channel, fn);
      mine.push([channel, fn]);
      return () => localBus.off(channel, fn);
    },
    ready: async () => undefined,
    async close() {
      for (const [c, fn] of mine.splice(0)) localBus.off(c, fn);
    },
  };
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * `LISTEN` on every channel over one client of its own (a pooled connection would be handed to
 * queries). A dropped connection is reopened with exponential backoff; after a reconnection every
 * channel is woken once, since whatever was notified meanwhile is lost.
 */
class PostgresWakeups implements Wakeups {
  private readonly bus = new EventEmitter().setMaxListeners(0);
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private timer: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;

  constructor(private readonly url: string) {
    this.connecting = this.connect();
  }

  on(channel: WakeChannel, fn: (payload: string) => void): () => void {
    this.bus.on(channel, fn);
    return () => this.bus.off(channel, fn);
  }

  ready(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  private async connect(): Promise<void> {
    const pgModule = require("pg") as typeof pg;
    const client = new pgModule.Client({ connectionString: this.url });
    const lost = () => this.lost(client);
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (n) => {
      const channel = n.channel.replace(/^codexpi_/, "") as WakeChannel;
      this.bus.emit(channel, n.payload ?? "");
    });
    try {
      await client.connect();
      for (const c of CHANNELS) await client.query(`LISTEN ${pgChannel(c)}`);
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      const reconnected = this.retryMs > RECONNECT_MIN_MS || this.client !== null;
      this.client = client;
      this.retryMs = RECONNECT_MIN_MS;
      if (reconnected) for (const c of CHANNELS) this.bus.emit(c, "");
    } catch {
      lost();
    }
  }

  private lost(client: pg.Client): void {
    client.removeAllListeners("end");
    client.removeAllListeners("error");
    client.on("error", () => undefined);
    client.end().catch(() => undefined);
    if (this.closed || this.timer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) this.connecting = this.connect();
    }, delay);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.connecting?.catch(() => undefined);
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners("end");
      c.removeAllListeners("error");
      c.on("error", () => undefined);
      await c.end().catch(() => undefined);
    }
    this.bus.removeAllListeners();
  }
}

/**
 * Waits for a wake-up of one of `channels` (its payload matching `payload` when given), for `ms`
 * at most, or until `signal` aborts: the poll loops' sleep, cut short by a wake-up.
 */
export function wakeOrTimeout(
  wakeups: Wakeups | null,
  channels: readonly WakeChannel[],
  ms: number,
  opts: { signal?: AbortSignal; payload?: string } = {},
): Promise<"woken" | "timeout"> {
  return new Promise((resolve) => {
    const offs: Array<() => void> = [];
    const done = (how: "woken" | "timeout") => {
      clearTimeout(timer);
      for (const off of offs) off();
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(how);
    };
    const onAbort = () => done("timeout");
    const timer = setTimeout(() => done("timeout"), ms);
    if (opts.signal?.aborted) return done("timeout");
    opts.signal?.addEventListener("abort", onAbort);
    for (const c of channels)
      offs.push(
        wakeups?.on(c, (p) => {
          if (opts.payload === undefined || p === opts.payload) done("woken");
        }) ?? (() => undefined),
      );
  });
}
