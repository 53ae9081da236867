import type { Database } from "./database.js";
import { parseEvent, type DomainEvent } from "./outbox.js";

/** A pending outbox event, parsed, as a consumer (the notifier) sees it. */
export interface OutboxEntry<E extends DomainEvent = DomainEvent> {
  id: number;
  event: E;
  /** `aggregate:id`: the events of one key are delivered in order. */
  orderingKey: string;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

/** A pending row that does not parse as any event (written by another version, or damaged). */
export interface MalformedEntry {
  id: number;
  kind: string;
  error: string;
}

/** The oldest pending events (at most `limit`), parsed; rows that do not parse are set apart. */
export async function pendingEvents(
  db: Database,
  limit = 200,
): Promise<{ entries: OutboxEntry[]; malformed: MalformedEntry[] }> {
  const rows = await db
    .selectFrom("outbox")
    .select(["id", "kind", "payload", "ordering_key", "attempts", "next_attempt_at", "created_at"])
    .where("status", "=", "pending")
    .orderBy("id")
    .limit(limit)
    .execute();
  const entries: OutboxEntry[] = [];
  const malformed: MalformedEntry[] = [];
  for (const row of rows) {
    try {
      const event = parseEvent(row.kind, row.payload);
      // Rows written before every kind had a key keep their delivery order by id alone.
      entries.push({
        id: row.id,
        event,
        orderingKey: row.ordering_key ?? `event:${row.id}`,
        attempts: row.attempts,
        nextAttemptAt: row.next_attempt_at,
        createdAt: row.created_at,
      });
    } catch (err) {
      malformed.push({ id: row.id, kind: row.kind, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { entries, malformed };
}

/** Kinds of the pending events after `afterId` with the same ordering key, oldest first. */
export async function laterPendingKinds(
  db: Database,
  orderingKey: string,
  afterId: number,
  limit = 50,
): Promise<Array<{ id: number; kind: string }>> {
  return db
    .selectFrom("outbox")
    .select(["id", "kind"])
    .where("status", "=", "pending")
    .where("ordering_key", "=", orderingKey)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
}

// Every mark names the state it moves from (`pending`): a mark that lost a race (another
// notifier already delivered or gave the event up) changes nothing.

/** Records pending events as delivered (or as having nothing to deliver). */
export async function markDelivered(db: Database, ids: number[], now: number): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable("outbox")
    .set({ status: "done", done_at: now, last_error: null })
    .where("id", "in", ids)
    .where("status", "=", "pending")
    .execute();
}

/** Puts an event back until `at`; `attempts` and `lastError` when a failed attempt caused it. */
export async function postpone(
  db: Database,
  id: number,
  at: number,
  failure?: { attempts?: number; lastError: string },
): Promise<void> {
  await db
    .updateTable("outbox")
    .set({
      next_attempt_at: at,
      ...(failure ? { last_error: failure.lastError.slice(0, 500) } : {}),
      ...(failure?.attempts !== undefined ? { attempts: failure.attempts } : {}),
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Gives an event up for good (health counts it). */
export async function markFailed(
  db: Database,
  id: number,
  attempts: number,
  error: string,
  now: number,
): Promise<void> {
  await db
    .updateTable("outbox")
    .set({ status: "failed", attempts, last_error: error.slice(0, 500), done_at: now })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Forgets delivered events older than `before`; pending and failed ones stay. */
export async function pruneDelivered(db: Database, before: number): Promise<void> {
  await db.deleteFrom("outbox").where("status", "=", "done").where("done_at", "<", before).execute();
}
