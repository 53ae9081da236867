import type { Logger } from "pino";
import type { Clock } from "../clock.js";
import { hostLock, writeTransaction, type Database } from "../database.js";
import { provablyDead } from "../leases.js";
import { failureNote } from "../../i18n/failures.js";
import type { HostLoad } from "../system/index.js";
import { finishItem } from "../conversations/index.js";
import type { RecordAgentOutcome } from "../outcomeHook.js";

/** What a worker host may be called (also a file-name-safe word). */
export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** A host's readings at its last heartbeat. */
export interface HostReadings {
  loadPercent: number;
  memoryPercent: number;
  running: number;
}

/** The readings of `host` now, with the number of workers it runs. */
export function readingsOf(host: HostLoad, running: number): HostReadings {
  return { loadPercent: host.loadPercent(), memoryPercent: host.memoryPercent(), running };
}

/**
 * Registers `name` for `owner` (a `processOwnerId`), or refuses while another live process holds
 * it: its heartbeat is fresh and it is not provably dead. Read and write in one write transaction
 * under the name's `hostLock` (PostgreSQL), so two processes started with one name cannot both win.
 */
export async function registerHost(
  db: Database,
  clock: Clock,
  name: string,
  owner: string,
  ttlMs: number,
  dataDir: string,
): Promise<boolean> {
  const now = clock.now();
  return writeTransaction(
    db,
    async (trx) => {
      const row = await trx.selectFrom("hosts").selectAll().where("name", "=", name).executeTakeFirst();
      if (row?.owner && row.owner !== owner && row.heartbeat_at > now - ttlMs && !provablyDead(row.owner))
        return false;
      if (row)
        await trx
          .updateTable("hosts")
          .set({ owner, data_dir: dataDir, started_at: now, heartbeat_at: now })
          .where("name", "=", name)
          .execute();
      else
        await trx
          .insertInto("hosts")
          .values({ name, owner, data_dir: dataDir, started_at: now, heartbeat_at: now })
          .execute();
      return true;
    },
    { locks: [hostLock(name)] },
  );
}

/** Records that `owner` still runs host `name`; false when another process has taken the name. */
export async function heartbeatHost(
  db: Database,
  clock: Clock,
  name: string,
  owner: string,
  readings: HostReadings,
): Promise<boolean> {
  const u = await db
    .updateTable("hosts")
    .set({
      heartbeat_at: clock.now(),
      load_percent: readings.loadPercent,
      memory_percent: readings.memoryPercent,
      running: readings.running,
    })
    .where("name", "=", name)
    .where("owner", "=", owner)
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Lets the name go on a clean exit (its heartbeat stays: running items are judged by it). */
export async function releaseHost(db: Database, name: string, owner: string): Promise<void> {
  await db
    .updateTable("hosts")
    .set({ owner: null })
    .where("name", "=", name)
    .where("owner", "=", owner)
    .execute();
}

/**
 * The coordinator's side of host loss: items running for projects placed on a host whose
 * heartbeat is older than `ttlMs` (or that never registered) are finished as `interrupted`, the
 * path a dead local worker takes (retry or incident as usual). The finish is fenced on the
 * attempt, so a late write by a worker that was only cut off moves nothing.
 */
export async function interruptLostHosts(
  db: Database,
  clock: Clock,
  hook: RecordAgentOutcome,
  logger: Logger,
  ttlMs: number,
): Promise<string[]> {
  const now = clock.now();
  const items = await db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .leftJoin("hosts as h", "h.name", "p.host")
    .select(["q.id", "q.attempt", "p.host", "h.heartbeat_at"])
    .where("q.status", "=", "running")
    .where("p.host", "is not", null)
    .where((eb) => eb.or([eb("h.heartbeat_at", "is", null), eb("h.heartbeat_at", "<", now - ttlMs)]))
    .execute();
  const interrupted: string[] = [];
  for (const item of items) {
    const done = await writeTransaction(
      db,
      (trx) =>
        finishItem(trx, clock, hook, item, {
          status: "failed",
          content: null,
          error: failureNote("worker.interrupted"),
          errorCode: "interrupted",
        }),
      { locks: [] }, // a fenced finish: see finishItem
    );
    if (!done) continue;
    logger.warn({ queueId: item.id, host: item.host }, "interrupted an item of a lost worker host");
    interrupted.push(item.id);
  }
  return interrupted;
}
