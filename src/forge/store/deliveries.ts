import type { Database } from "../../engine/api/runtime.js";
import type { ForgeDeliveriesTable, ForgeName } from "./schema.js";

/** A journaled delivery as the processor reads it. */
export type Delivery = Pick<
  ForgeDeliveriesTable,
  "forge" | "delivery_id" | "event" | "project_id" | "body" | "attempts" | "root_ts" | "received_at"
>;

/**
 * The journal of webhook deliveries (`forge_deliveries`): written before a delivery is acked, so
 * that an acked delivery is never lost, and keyed by the forge's delivery id, so that a
 * redelivery (same id) is recognised and handled once.
 */
export class ForgeDeliveries {
  constructor(private readonly db: Database) {}

  /** Journals a delivery; false when one with the same id was journaled before (a redelivery). */
  async journal(d: Omit<Delivery, "attempts" | "root_ts" | "received_at">, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto("forge_deliveries")
      .values({
        ...d,
        received_at: now,
        status: "pending",
        attempts: 0,
        outcome: null,
        root_ts: null,
        done_at: null,
      })
      .onConflict((oc) => oc.columns(["forge", "delivery_id"]).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** The deliveries not handled yet, oldest first. */
  pending(limit = 20): Promise<Delivery[]> {
    return (
      this.db
        .selectFrom("forge_deliveries")
        .select(["forge", "delivery_id", "event", "project_id", "body", "attempts", "root_ts", "received_at"])
        .where("status", "=", "pending")
        // Fresh deliveries first: those waiting to be tried again never hold them back.
        .orderBy("attempts")
        .orderBy("received_at")
        .limit(limit)
        .execute()
    );
  }

  /** What became of a delivery (null while it waits, or when there is none). */
  async outcome(forge: ForgeName, deliveryId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("forge_deliveries")
      .select("outcome")
      .where("forge", "=", forge)
      .where("delivery_id", "=", deliveryId)
      .executeTakeFirst();
    return row?.outcome ?? null;
  }

  /** How many deliveries are journaled (every status). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("forge_deliveries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Records the Slack root posted for a delivery (a retry reuses it rather than posting again). */
  async rootPosted(d: Delivery, ts: string): Promise<void> {
    await this.db
      .updateTable("forge_deliveries")
      .set({ root_ts: ts })
      .where("forge", "=", d.forge)
      .where("delivery_id", "=", d.delivery_id)
      .execute();
  }

  /** Ends a delivery: done with what it did, or failed after its last attempt. */
  async finish(d: Delivery, status: "done" | "failed", outcome: string, now: number): Promise<void> {
    await this.db
      .updateTable("forge_deliveries")
      .set({ status, outcome, done_at: now, attempts: d.attempts + 1 })
      .where("forge", "=", d.forge)
      .where("delivery_id", "=", d.delivery_id)
      .where("status", "=", "pending")
      .execute();
  }

  /** Forgets the handled deliveries received before `before` (a redelivery after that runs again). */
  async forget(before: number): Promise<void> {
    await this.db
      .deleteFrom("forge_deliveries")
      .where("received_at", "<", before)
      .where("status", "!=", "pending")
      .execute();
  }

  /** Counts a failed attempt; the delivery stays pending for the next pass. */
  async attempted(d: Delivery): Promise<void> {
    await this.db
      .updateTable("forge_deliveries")
      .set({ attempts: d.attempts + 1 })
      .where("forge", "=", d.forge)
      .where("delivery_id", "=", d.delivery_id)
      .execute();
  }
}
