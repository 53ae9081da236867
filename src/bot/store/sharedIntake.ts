import {
  type Clock,
  type Database,
  acquireLease,
  forgetExpiredLeases,
  leaseExpiries,
  provablyDead,
  releaseLease,
} from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables
import {
  type IntakeJournal,
  type IntakeRecord,
  type IntakeRequest,
  type IntakeRow,
  toIntakeRow as toRow,
} from "./intakeJournal.js";

/** The lease by which an instance holds its intake rows: `intake:<owner>`. */
const holdOf = (owner: string) => `intake:${owner}`;

/**
 * The intake journal in the shared database (PostgreSQL), one for every bot instance: a request
 * is written here before it is acked, under its Slack key (unique: a retry that reaches another
 * instance is acked and dropped there), and belongs to the instance that recorded it. Each instance
 * renews a lease `intake:<owner>` at every `maintain`; once it has expired (or its process is
 * provably dead, same machine), any survivor adopts its unconsumed rows with one guarded update
 * (`WHERE owner = <the dead one>`: of two survivors, the second finds nothing left) and consumes
 * them. An ack waits for one insert here, not for any lock: nothing else writes these rows.
 */
export class SharedIntakeStore implements IntakeJournal {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly holdMs: number,
  ) {}

  /**
   * One multi-row insert (one commit, fsynced by PostgreSQL) for a burst. A key inserted twice in
   * the batch, or recorded before, gets null; the rows that went in are told apart by their keys.
   */
  async recordAll(requests: readonly IntakeRequest[]): Promise<Array<number | null>> {
    if (!requests.length) return [];
    const rows = await this.db
      .insertInto("intake_requests")
      .values(
        requests.map((q) => ({
          key: q.key,
          kind: q.kind,
          body: JSON.stringify(q.body),
          owner: this.owner,
          received_at: q.receivedAt,
        })),
      )
      .onConflict((oc) => oc.column("key").doNothing())
      .returning(["id", "key"])
      .execute();
    const ids = new Map(rows.map((r) => [r.key, Number(r.id)]));
    return requests.map((q) => {
      const id = ids.get(q.key) ?? null;
      ids.delete(q.key); // a second request of the same key in the batch is the retry
      return id;
    });
  }

  /** Writes one request (tests, tools); see `recordAll`. */
  async record(key: string, kind: string, body: unknown, now: number): Promise<number | null> {
    const [id] = await this.recordAll([{ key, kind, body, receivedAt: now }]);
    return id ?? null;
  }

  async done(id: number, now: number): Promise<void> {
    await this.db
      .updateTable("intake_requests")
      .set({ status: "done", done_at: now })
      .where("id", "=", id)
      .where("status", "in", ["pending", "waiting"])
      .execute();
  }

  async defer(id: number, now: number, firstDelayMs: number, maxDelayMs: number): Promise<void> {
    const row = await this.db
      .selectFrom("intake_requests")
      .select("attempts")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return;
    const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(row.attempts, 16));
    await this.db
      .updateTable("intake_requests")
      .set({ status: "waiting", attempts: row.attempts + 1, next_at: now + delay })
      .where("id", "=", id)
      .where("status", "in", ["pending", "waiting"])
      .execute();
  }

  /** An earlier life of this instance had another owner id: its rows come back through `maintain`. */
  unfinished(): IntakeRow[] {
    return [];
  }

  async maintain(now: number): Promise<IntakeRow[]> {
    await acquireLease(this.db, this.clock, holdOf(this.owner), this.owner, this.holdMs);
    const owners = await this.db
      .selectFrom("intake_requests")
      .select("owner")
      .distinct()
      .where("status", "<>", "done")
      .where("owner", "<>", this.owner)
      .execute();
    if (!owners.length) return [];
    const expiry = await leaseExpiries(
      this.db,
      owners.map((o) => holdOf(o.owner)),
    );
    const adopted: IntakeRow[] = [];
    for (const { owner } of owners) {
      const expiresAt = expiry.get(holdOf(owner));
      if (expiresAt !== undefined && expiresAt > now && !provablyDead(owner)) continue;
      const rows = await this.db
        .updateTable("intake_requests")
        .set({ owner: this.owner })
        .where("owner", "=", owner)
        .where("status", "<>", "done")
        .returningAll()
        .execute();
      await releaseLease(this.db, holdOf(owner), owner);
      adopted.push(...rows.filter((r) => r.status === "pending").map((r) => toRow(r as IntakeRecord)));
    }
    return adopted.sort((a, b) => a.id - b.id);
  }

  async due(now: number): Promise<IntakeRow[]> {
    const rows = await this.db
      .selectFrom("intake_requests")
      .selectAll()
      .where("owner", "=", this.owner)
      .where("status", "=", "waiting")
      .where("next_at", "<=", now)
      .orderBy("id")
      .execute();
    return rows.map((r) => toRow(r as IntakeRecord));
  }

  async firstSignatures(keys: readonly string[], now: number): Promise<boolean[]> {
    if (!keys.length) return [];
    const rows = await this.db
      .insertInto("intake_signatures")
      .values(keys.map((key) => ({ key, at: now })))
      .onConflict((oc) => oc.column("key").doNothing())
      .returning("key")
      .execute();
    const inserted = new Set(rows.map((r) => r.key));
    // A key twice in the batch: the first is the request, the second its replay.
    return keys.map((key) => inserted.delete(key));
  }

  async forgetSignatures(before: number): Promise<void> {
    await this.db.deleteFrom("intake_signatures").where("at", "<", before).execute();
  }

  async forgetDone(before: number): Promise<void> {
    await this.db
      .deleteFrom("intake_requests")
      .where("status", "=", "done")
      .where("done_at", "<", before)
      .execute();
    // The holds of instances long gone that left nothing to adopt.
    await forgetExpiredLeases(this.db, holdOf(""), before);
  }

  async close(): Promise<void> {
    await releaseLease(this.db, holdOf(this.owner), this.owner);
  }
}
