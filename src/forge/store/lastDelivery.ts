import type { Database } from "../../engine/api/runtime.js";
import type { ForgeDeliveriesTable } from "./schema.js";

/** The last delivery codexpi journaled for a project: what came, when, and what it did. */
export type LastDelivery = Pick<
  ForgeDeliveriesTable,
  "forge" | "event" | "received_at" | "status" | "outcome"
>;

/**
 * The last delivery journaled for a project (`doctor` says it beside what the forge says of its
 * webhook: a delivery the forge made but codexpi never journaled was refused before the journal,
 * e.g. its signature), or null when none came (or they were forgotten after a month).
 */
export async function lastDelivery(db: Database, projectId: string): Promise<LastDelivery | null> {
  const row = await db
    .selectFrom("forge_deliveries")
    .select(["forge", "event", "received_at", "status", "outcome"])
    .where("project_id", "=", projectId)
    .orderBy("received_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, received_at: Number(row.received_at) } : null;
}
