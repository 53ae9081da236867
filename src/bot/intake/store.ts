import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type IntakeJournal,
  type IntakeRecord as RawRow,
  type IntakeRequest,
  type IntakeRow,
  toIntakeRow as toRow,
} from "../store/intakeJournal.js";

const fsync = (fd: number) =>
  new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));

/**
 * The intake database (`<data dir>/intake.db`): every request that asks for work is written here
 * before it is acked. It is the bot process's own file, never the main database: workers, the CLI
 * and a foreign writer may hold the main database's write lock for seconds, and better-sqlite3
 * would block the event loop (and every ack) while waiting for it. Opened in exclusive locking
 * mode, so no other process can lock (or even read) it while `serve` runs: a write here never
 * waits.
 *
 * WAL with `synchronous=NORMAL`: a commit reaches the WAL file (it survives a killed process) but
 * is not fsynced. The write an ack depends on (`recordAll`, a whole burst of requests in one
 * transaction, see ../groupCommit.ts) is then made durable by an fsync of the WAL file, run on
 * libuv's thread pool: the event loop reads, checks and acks other requests meanwhile, and the
 * requests of the batch are acked only once it is done. That is what `synchronous=FULL` does in
 * WAL mode (an fsync of the WAL at commit), without blocking the event loop for it (~3 ms here,
 * far more on a busy disk). A checkpoint cannot lose a synced frame: with NORMAL it syncs the WAL
 * before copying it into the database and the database after, and only then may the WAL start
 * over. Everything else commits with NORMAL alone (safe against a killed process, not a power
 * loss), because losing it costs nothing but a refusal: a lost done mark replays a request whose
 * key the main database already holds, a lost signature lets a replay reach that same refusal.
 */
export class IntakeStore implements IntakeJournal {
  private readonly sqlite: SQLite.Database;
  /** The highest id recorded before this process opened the file: what a replay covers. */
  readonly lastIdAtOpen: number;
  /** The WAL file, open for its fsyncs until the store closes (see `recordAll`). */
  private walFd: number | null = null;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.sqlite = new SQLite(file);
    try {
      this.sqlite.pragma("busy_timeout = 0");
      this.sqlite.pragma("locking_mode = EXCLUSIVE");
      // The durability of `recordAll` rests on the WAL (it fsyncs that file): refuse to run without.
      const mode = this.sqlite.pragma("journal_mode = WAL", { simple: true });
      if (mode !== "wal")
        throw new Error(`the intake database cannot use WAL (journal mode ${String(mode)})`);
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

  /**
   * Writes requests in one transaction, then fsyncs the WAL off the event loop; resolves once they
   * are durable. Each one's id, or null when its key was recorded before (a retry, a replay).
   */
  async recordAll(requests: readonly IntakeRequest[]): Promise<Array<number | null>> {
    const insert = this.sqlite.prepare(
      "INSERT INTO intake (key, kind, body, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
    );
    const ids = this.sqlite.transaction(() =>
      requests.map((q) => {
        const r = insert.run(q.key, q.kind, JSON.stringify(q.body), q.receivedAt);
        return r.changes === 1 ? Number(r.lastInsertRowid) : null;
      }),
    )();
    await fsync(this.wal());
    return ids;
  }

  /** Writes one request in a commit of its own (tests, tools); see `recordAll`. */
  async record(key: string, kind: string, body: unknown, now: number): Promise<number | null> {
    const [id] = await this.recordAll([{ key, kind, body, receivedAt: now }]);
    return id ?? null;
  }

  /**
   * The WAL file's descriptor, opened at the first commit (the file exists from the open on) and
   * kept: closing a descriptor of a file drops the process's POSIX locks on it. Its directory
   * entry is synced once, as SQLite would at its first sync of the file.
   */
  private wal(): number {
    if (this.walFd === null) {
      this.walFd = fs.openSync(`${this.file}-wal`, "r");
      const dir = fs.openSync(path.dirname(this.file), "r");
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    }
    return this.walFd;
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

  /** Records signed requests' keys in one transaction; false for a key recorded before (a replay). */
  firstSignatures(keys: readonly string[], now: number): boolean[] {
    const insert = this.sqlite.prepare(
      "INSERT INTO seen_signatures (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
    );
    return this.sqlite.transaction(() => keys.map((key) => insert.run(key, now).changes === 1))();
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
    if (this.walFd !== null) fs.closeSync(this.walFd);
    this.walFd = null;
  }
}
