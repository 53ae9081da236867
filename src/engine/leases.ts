import { immediate, type Database } from "./database.js";
import type { Clock } from "./clock.js";

/** The lease that makes one process the coordinator of ticks. */
export const COORDINATOR_LEASE = "coordinator";

/**
 * Takes or renews a lease for `owner` until now+ttl. Returns false while another owner holds an
 * unexpired one. The read and the write share one IMMEDIATE transaction, so two processes cannot
 * both win.
 */
export async function acquireLease(
  db: Database,
  clock: Clock,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<boolean> {
  const now = clock.now();
  return immediate(db, async (trx) => {
    const row = await trx.selectFrom("leases").selectAll().where("name", "=", name).executeTakeFirst();
    if (row && row.owner !== owner && row.expires_at > now) return false;
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
  });
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
