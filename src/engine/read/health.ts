import { sql } from "kysely";
import type { Tx } from "../database.js";

/** Throws when the database does not answer (health). */
export async function pingDatabase(db: Tx): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Pending and failed outbox events (health). */
export async function outboxCounts(db: Tx): Promise<{ pending: number; failed: number }> {
  const ob = await db
    .selectFrom("outbox")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["pending", "failed"])
    .groupBy("status")
    .execute();
  return {
    pending: Number(ob.find((c) => c.status === "pending")?.n ?? 0),
    failed: Number(ob.find((c) => c.status === "failed")?.n ?? 0),
  };
}

/** Finished turns by how they ended (metrics: a counter read from the queue's history). */
export async function turnsByOutcome(db: Tx): Promise<Array<{ outcome: string; n: number }>> {
  const rows = await db
    .selectFrom("prompt_queue")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["done", "failed", "cancelled", "steered"])
    .groupBy("status")
    .execute();
  return rows.map((r) => ({ outcome: r.status, n: Number(r.n) }));
}

/** Approvals waiting for a person's answer. */
export async function approvalsWaiting(db: Tx): Promise<number> {
  const row = await db
    .selectFrom("approvals")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Connections egress proxies refused, per project, from the audit trail (kept for its retention). */
export async function egressRefusals(db: Tx): Promise<Array<{ project: string; n: number }>> {
  const rows = await db
    .selectFrom("audit_events")
    .select(["project", (eb) => eb.fn.countAll<number>().as("n")])
    .where("action", "=", "egress.refused")
    .groupBy("project")
    .execute();
  return rows.map((r) => ({ project: r.project ?? "", n: Number(r.n) }));
}
