import os from "node:os";
import { randomBytes } from "node:crypto";
import { leaseLock, writeTransaction, type Database } from "./database.js";
import type { Clock } from "./clock.js";
import { isSameProcessAlive, processStartTime } from "./system/index.js";

/** The lease that makes one process the coordinator of ticks. */
export const COORDINATOR_LEASE = "coordinator";

/**
 * A lease owner id for this process, `<host>:<pid>:<start time>:<nonce>`: host, pid and start time
 * let a process on the same host prove the holder dead (a pid alone may be reused); the nonce keeps
 * two engines of one process apart. Without /proc the start time is `?`, and such a holder is never
 * taken for dead: its lease expires instead.
 */
export function processOwnerId(pid = process.pid, host = os.hostname()): string {
  return `${host}:${pid}:${processStartTime(pid) ?? "?"}:${randomBytes(3).toString("hex")}`;
}

/**
 * Whether `owner` names a process of this host that no longer runs (pid and start time not alive).
 * Another host's holder, or an id of another shape, is never provably dead: its lease time bounds
 * the gap instead.
 */
export function provablyDead(owner: string, host = os.hostname()): boolean {
  const m = /^(.*):(\d+):(\d+):[0-9a-f]+$/.exec(owner);
  if (!m || m[1] !== host) return false;
  return !isSameProcessAlive(Number(m[2]), m[3] as string);
}

/**
 * Takes or renews a lease for `owner` until now+ttl. Returns false while another owner holds an
 * unexpired one, unless that owner is provably dead (same host, its process gone): then it is
 * replaced at once. The read and the write share one write transaction (on PostgreSQL under the
 * lease's own `leaseLock`, not the global one), so two processes cannot both win.
 */
export async function acquireLease(
  db: Database,
  clock: Clock,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<boolean> {
  const now = clock.now();
  return writeTransaction(
    db,
    async (trx) => {
      const row = await trx.selectFrom("leases").selectAll().where("name", "=", name).executeTakeFirst();
      if (row && row.owner !== owner && row.expires_at > now && !provablyDead(row.owner)) return false;
      if (row) {
        await trx
          .updateTable("leases")
          .set({ owner, expires_at: now + ttlMs, acquired_at: row.owner === owner ? row.acquired_at : now })
          .where("name", "=", name)
          .execute();
      } else {
        await trx
          .insertInto("leases")
          .values({ name, owner, expires_at: now + ttlMs, acquired_at: now })
          .execute();
      }
      return true;
    },
    { locks: [leaseLock(name)] },
  );
}

/** Gives a lease up, if `owner` still holds it. */
export async function releaseLease(db: Database, name: string, owner: string): Promise<void> {
  await db.deleteFrom("leases").where("name", "=", name).where("owner", "=", owner).execute();
}

/** Who holds a lease now, if anyone (for health and status). */
export async function leaseHolder(
  db: Database,
  clock: Clock,
  name: string,
): Promise<{ owner: string; expiresAt: number } | null> {
  const row = await db.selectFrom("leases").selectAll().where("name", "=", name).executeTakeFirst();
  if (!row || row.expires_at <= clock.now()) return null;
  return { owner: row.owner, expiresAt: row.expires_at };
}

/** When each of the named leases expires (absent: nobody holds it). */
export async function leaseExpiries(db: Database, names: string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map();
  const rows = await db
    .selectFrom("leases")
    .select(["name", "expires_at"])
    .where("name", "in", names)
    .execute();
  return new Map(rows.map((r) => [r.name, Number(r.expires_at)]));
}

/** Deletes the leases named `<prefix>…` that expired before `before` (holders long gone). */
export async function forgetExpiredLeases(db: Database, prefix: string, before: number): Promise<void> {
  await db
    .deleteFrom("leases")
    .where("name", "like", `${prefix}%`)
    .where("expires_at", "<", before)
    .execute();
}
