import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import {
  type BusyMode,
  type DatabaseTarget,
  dialectOf,
  migrateIfBehind,
  openDatabase,
  type Database,
} from "./database.js";
import { DEFAULT_LOCALE, type Locale, t } from "../i18n/index.js";

/** Below this much free space on the data directory's disk, health fails (answers are small, logs are not). */
const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** Raised when codexpi cannot start on its storage; the message names the path and the fix. */
export class StartupError extends Error {
  override name = "StartupError";
}

/**
 * Proves the database takes writes: an update that matches nothing still needs a write
 * transaction, so a read-only file (or directory, or mount) fails with SQLITE_READONLY though reads
 * work. `noWait` (health): another process holding the write lock answers at once instead of
 * blocking the event loop for the busy timeout, and counts as writable.
 */
export async function probeDatabaseWrite(db: Database, opts: { noWait?: boolean } = {}): Promise<void> {
  if (dialectOf(db) === "postgres") {
    // A read-only server (a standby, default_transaction_read_only) refuses any UPDATE; matching
    // no row, it waits for no lock.
    await sql`update leases set expires_at = expires_at where false`.execute(db);
    return;
  }
  await db.connection().execute(async (conn) => {
    const before = opts.noWait
      ? ((await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn)).rows[0]?.timeout ?? 5000)
      : null;
    if (before !== null) await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      await sql`update leases set expires_at = expires_at where 0`.execute(conn);
    } catch (err) {
      if (before === null || !/BUSY|LOCKED/.test((err as { code?: string }).code ?? "")) throw err;
    } finally {
      if (before !== null) await sql.raw(`pragma busy_timeout = ${Number(before)}`).execute(conn);
    }
  });
}

/**
 * Opens, migrates and write-probes the database for a long-running process: any failure becomes a
 * StartupError naming the file and what to do, instead of a stack trace (or a bot that starts and
 * cannot write).
 */
export async function openWritable(
  target: string | DatabaseTarget,
  opts: { busy?: BusyMode; locale?: Locale } = {},
): Promise<Database> {
  let db: Database | null = null;
  try {
    db = openDatabase(target, opts);
    await migrateIfBehind(db as unknown as Kysely<unknown>);
    await probeDatabaseWrite(db);
    return db;
  } catch (err) {
    await db?.destroy().catch(() => undefined);
    throw new StartupError(describeStorageError(target, err, opts.locale), { cause: err });
  }
}

/**
 * One sentence on a database codexpi cannot use (an SQLite file or a PostgreSQL server), and the
 * fix, in the operator's language (CODEXPI_LOCALE).
 */
export function describeStorageError(
  target: string | DatabaseTarget,
  err: unknown,
  locale: Locale = DEFAULT_LOCALE,
): string {
  if (typeof target === "string") return describeDatabaseError(target, err, locale);
  return target.dialect === "postgres"
    ? describePostgresError(err, locale)
    : describeDatabaseError(target.file, err, locale);
}

/** One sentence on a PostgreSQL server codexpi cannot use (never the URL: it may hold a password). */
function describePostgresError(err: unknown, locale: Locale): string {
  const reason =
    (err as { cause?: { message?: string }; message?: string }).cause?.message ?? (err as Error).message;
  return t(locale, "cli.storage.postgres", { reason });
}

/** One sentence naming the database file, what went wrong and the fix. */
function describeDatabaseError(file: string, err: unknown, locale: Locale): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? "";
  const reason = e.cause?.message ?? e.message ?? String(err);
  const dir = path.dirname(file);
  const user =
    typeof process.getuid === "function" ? t(locale, "cli.storage.uid", { uid: process.getuid() }) : "";
  const params = { file, dir, reason, user };
  if (/READONLY/.test(code) || /readonly/i.test(reason)) return t(locale, "cli.storage.read_only", params);
  if (/FULL/.test(code) || code === "ENOSPC") return t(locale, "cli.storage.disk_full", params);
  if (/CANTOPEN|PERM|AUTH/.test(code) || code === "EACCES" || code === "EROFS")
    return t(locale, "cli.storage.cannot_open", params);
  if (/CORRUPT|NOTADB/.test(code)) return t(locale, "cli.storage.damaged", params);
  return t(locale, "cli.storage.other", params);
}

/** How the data directory's disk is doing; `problem` is null when it takes writes and has room. */
export interface DiskState {
  freeBytes: number | null;
  problem: string | null;
}

/** Seams for the disk check: tests simulate a full disk without filling one. */
export interface DiskProbeOptions {
  minFreeBytes?: number;
  /** Writes the probe file; throws like fs.writeFileSync (e.g. ENOSPC). */
  write?: (file: string, data: string) => void;
  statfs?: (dir: string) => { bavail: number; bsize: number };
}

/**
 * Checks the disk of `dir`: free space over the threshold, and a small file written, synced and
 * removed (free space alone misses quotas and read-only mounts).
 */
export function probeDisk(dir: string, opts: DiskProbeOptions = {}): DiskState {
  const min = opts.minFreeBytes ?? MIN_FREE_BYTES;
  let freeBytes: number | null = null;
  try {
    const s = (opts.statfs ?? fs.statfsSync)(dir);
    freeBytes = s.bavail * s.bsize;
  } catch {
    // statfs is missing on some platforms: the write probe still tells
  }
  const file = path.join(dir, `.codexpi-probe-${process.pid}`);
  try {
    (opts.write ?? writeSynced)(file, String(Date.now()));
  } catch (err) {
    return { freeBytes, problem: `cannot write in ${dir}: ${(err as Error).message}` };
  } finally {
    fs.rmSync(file, { force: true });
  }
  if (freeBytes !== null && freeBytes < min)
    return {
      freeBytes,
      problem: `${dir}: ${Math.floor(freeBytes / 1048576)} MiB free (under ${min / 1048576} MiB)`,
    };
  return { freeBytes, problem: null };
}

function writeSynced(file: string, data: string): void {
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
