import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type IntakeJournal,
  type IntakeRecord as RawRow,
  type IntakeRow,
  toIntakeRow as toRow,
} from "../store/intakeJournal.js";

/**
 * The intake database (`<data dir>/intake.db`): every request that asks for work is written here
 * before it is acked. It is the bot process's own file, never the main database: workers, the CLI
 * and a foreign writer may hold the main database's write lock for seconds, and better-sqlite3
 * would block the event loop (and every ack) while waiting for it. Opened in exclusive locking
 * mode, so no other process can lock (or even read) it while `serve` runs: a write here never
 * waits. WAL; the write an ack depends on (`record`) commits with `synchronous=FULL`, fsynced, so
 * an acked request survives a power loss too, not only a killed process (one fsync, ~3 ms here).
 * Everything else commits with NORMAL (safe against a killed process, not a power loss), because
 * losing it costs nothing but a refusal: a lost done mark replays a request whose key the main
 * database already holds, a lost signature lets a replay reach that same refusal. Three fsyncs
 * per request made a burst of 50 commands block the event loop for half a second.
 */
export class IntakeStore implements IntakeJournal {
  private readonly sqlite: SQLite.Database;
  /** The highest id recorded before this process opened the file: what a replay covers. */
  readonly lastIdAtOpen: number;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.sqlite = new SQLite(file);
    try {
      this.sqlite.pragma("busy_timeout = 0");
      this.sqlite.pragma("locking_mode = EXCLUSIVE");
      this.sqlite.pragma("journal_mode = WAL");
      this.sqlite.pragma("synchronous = NORMAL");
      // A write takes the exclusive lock now and keeps it: a second `serve` on this data
      // directory fails here, at start, rather than stealing or blocking acks later.
      this.sqlite.exec(`
        CREATE TABLE IF NOT EXISTS intake (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          key TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          body TEXT NOT NULL,
          received_at INTEGER NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending',
          attempts INTEGER NOT NULL DEFAULT 0,
          next_at INTEGER,
          done_at INTEGER
        );
        CREATE INDEX IF NOT EXISTS intake_open ON intake (status, next_at) WHERE status <> 'done';
        CREATE TABLE IF NOT EXISTS seen_signatures (key TEXT PRIMARY KEY, at INTEGER NOT NULL);
      `);
      // The tables may exist already (a restart): a write transaction takes the lock for good.
      this.sqlite.exec("BEGIN IMMEDIATE; COMMIT");
    } catch (err) {
      this.sqlite.close();
      throw new Error(
        `cannot open the intake database ${file} (is another codexpi serve using this data directory?): ${String((err as Error).message)}`,
        { cause: err },
      );
    }
    const max = this.sqlite.prepare("SELECT max(id) AS m FROM intake").get() as { m: number | null };
    this.lastIdAtOpen = max.m ?? 0;
  }

  /** Writes a request; its id, or null when its key was recorded before (a Slack retry, a replay). */
  record(key: string, kind: string, body: unknown, now: number): number | null {
    const r = this.sqlite
      .prepare(
        "INSERT INTO intake (key, kind, body, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
      )
      .run(key, kind, JSON.stringify(body), now);
    return r.changes === 1 ? Number(r.lastInsertRowid) : null;
  }

  /** Marks a request consumed: it is never replayed. */
  done(id: number, now: number): void {
    this.sqlite
      .prepare(
        "UPDATE intake SET status = 'done', done_at = ? WHERE id = ? AND status IN ('pending', 'waiting')",
      )
      .run(now, id);
  }

  /**
   * Puts a request aside (a reply whose thread is not known yet) for `firstDelayMs`, doubled at
   * each try up to `maxDelayMs`: a reply that never matches costs few tries over its bound.
   */
  defer(id: number, now: number, firstDelayMs: number, maxDelayMs: number): void {
    this.sqlite
      .prepare(
        `UPDATE intake SET status = 'waiting', attempts = attempts + 1,
           next_at = ? + min(?, ? * (1 << min(attempts, 16)))
         WHERE id = ? AND status IN ('pending', 'waiting')`,
      )
      .run(now, maxDelayMs, firstDelayMs, id);
  }

  /** Requests recorded by an earlier process and never consumed, oldest first. */
  unfinished(): IntakeRow[] {
    return (
      this.sqlite
        .prepare("SELECT * FROM intake WHERE status = 'pending' AND id <= ? ORDER BY id")
        .all(this.lastIdAtOpen) as RawRow[]
    ).map(toRow);
  }

  /** Nothing to keep alive nor to adopt: this file is this instance's alone. */
  maintain(): IntakeRow[] {
    return [];
  }

  /** Requests put aside whose time has come, oldest first. */
  due(now: number): IntakeRow[] {
    return (
      this.sqlite
        .prepare("SELECT * FROM intake WHERE status = 'waiting' AND next_at <= ? ORDER BY id")
        .all(now) as RawRow[]
    ).map(toRow);
  }

  /** One request by id (tests, diagnostics). */
  get(id: number): IntakeRow | null {
    const r = this.sqlite.prepare("SELECT * FROM intake WHERE id = ?").get(id) as RawRow | undefined;
    return r ? toRow(r) : null;
  }

  /** Counts by status (health, tests). */
  counts(): Record<IntakeRow["status"], number> {
    const out = { pending: 0, waiting: 0, done: 0 };
    for (const r of this.sqlite
      .prepare("SELECT status, count(*) AS n FROM intake GROUP BY status")
      .all() as Array<{
      status: IntakeRow["status"];
      n: number;
    }>)
      out[r.status] = r.n;
    return out;
  }

  /** Records a signed request's key; false when it was recorded before (a replay). */
  firstSignature(key: string, now: number): boolean {
    return (
      this.sqlite
        .prepare("INSERT INTO seen_signatures (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING")
        .run(key, now).changes === 1
    );
  }

  /** The signature keys still remembered (tests). */
  signatures(): string[] {
    return (
      this.sqlite.prepare("SELECT key FROM seen_signatures ORDER BY key").all() as Array<{ key: string }>
    ).map((r) => r.key);
  }

  /** Forgets the signatures seen before `before`. */
  forgetSignatures(before: number): void {
    this.sqlite.prepare("DELETE FROM seen_signatures WHERE at < ?").run(before);
  }

  /** Forgets the requests consumed before `before`. */
  forgetDone(before: number): void {
    this.sqlite.prepare("DELETE FROM intake WHERE status = 'done' AND done_at < ?").run(before);
  }

  /** Closes the file (and releases its exclusive lock). */
  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}
