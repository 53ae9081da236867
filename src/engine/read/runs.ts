import type { Tx } from "../database.js";

/** Whose a run is. */
export interface RunOrigin {
  runId: string;
  ownerId: string;
}

/** One run's origin; null when it does not exist. */
export async function runOrigin(db: Tx, runId: string): Promise<RunOrigin | null> {
  const r = await db
    .selectFrom("remediation_runs")
    .select(["id", "owner_id"])
    .where("id", "=", runId)
    .executeTakeFirst();
  return r ? { runId: r.id, ownerId: r.owner_id } : null;
}
