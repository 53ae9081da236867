import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type { PausedReason, Schedule, ScheduleStatus } from "./schema.js";
import "./schema.js";

/** PostgreSQL answers bigint columns as strings: the engine's numbers are numbers. */
export const scheduleRow = (r: Schedule): Schedule => ({
  ...r,
  next_fire_at: Number(r.next_fire_at),
  last_fired_at: r.last_fired_at === null ? null : Number(r.last_fired_at),
  fired_count: Number(r.fired_count),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export async function getSchedule(db: Kysely<DB>, id: string): Promise<Schedule | null> {
  const r = await db.selectFrom("schedules").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? scheduleRow(r) : null;
}

/** The active schedules due at `now`, oldest due first (the tick's read: index idx_schedules_due). */
export async function dueSchedules(db: Kysely<DB>, now: number, limit = 50): Promise<Schedule[]> {
  const rows = await db
    .selectFrom("schedules")
    .selectAll()
    .where("status", "=", "active")
    .where("next_fire_at", "<=", now)
    .orderBy("next_fire_at")
    .limit(limit)
    .execute();
  return rows.map(scheduleRow);
}

/**
 * Moves a schedule's next firing from `from` to `to` only if it is still `from`: the one write
 * that decides which process fires a minute (0 rows: another one did, or the schedule changed).
 */
export async function advance(
  trx: Kysely<DB>,
  id: string,
  from: number,
  to: number,
  now: number,
  fired: { conversationId: string } | null,
): Promise<boolean> {
  const r = await trx
    .updateTable("schedules")
    .set((eb) => ({
      next_fire_at: to,
      updated_at: now,
      ...(fired
        ? {
            last_fired_at: now,
            last_conversation_id: fired.conversationId,
            fired_count: eb("fired_count", "+", 1),
          }
        : {}),
    }))
    .where("id", "=", id)
    .where("status", "=", "active")
    .where("next_fire_at", "=", from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Pauses or resumes; a resumed schedule's next firing is given (none missed while paused). */
export async function setStatus(
  db: Kysely<DB>,
  id: string,
  status: ScheduleStatus,
  now: number,
  opts: { reason?: PausedReason | null; nextFireAt?: number; onlyIf?: { nextFireAt: number } } = {},
): Promise<boolean> {
  let q = db
    .updateTable("schedules")
    .set({
      status,
      paused_reason: status === "paused" ? (opts.reason ?? "person") : null,
      updated_at: now,
      ...(opts.nextFireAt !== undefined ? { next_fire_at: opts.nextFireAt } : {}),
    })
    .where("id", "=", id);
  if (opts.onlyIf) q = q.where("status", "=", "active").where("next_fire_at", "=", opts.onlyIf.nextFireAt);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
