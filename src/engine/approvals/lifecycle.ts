import type { Kysely } from "kysely";
import type { OutcomeReactor } from "../outcomeHook.js";
import type { Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { emit } from "../outbox.js";
import type { DB } from "../schema.js";
import { moveApproval } from "./store.js";

// How a request closes without a person: its deadline passes (`expired`: Codex is told `cancel`),
// or the turn that asked it ends while it waits (`abandoned`). In stdio mode an app-server's
// pending request dies with it, and nothing ran: the command never runs without an answer. A
// reply in the thread starts a new turn on the same Codex thread, which asks again if it must.

/** Expires one pending request in the caller's transaction, with its event; false when it was no longer pending. */
export async function expireApproval(
  trx: Kysely<DB>,
  now: number,
  approval: { id: string; conversation_id: string },
): Promise<boolean> {
  if (!(await moveApproval(trx, approval.id, "expired", { answered_at: now }))) return false;
  await emit(trx, now, {
    kind: "approval.expired",
    conversationId: approval.conversation_id,
    approvalId: approval.id,
  });
  return true;
}

/** Tick step: expires the pending requests whose deadline has passed. */
export async function expireApprovals(kernel: Pick<Kernel, "db" | "clock">): Promise<{ expired: string[] }> {
  const now = kernel.clock.now();
  const due = await kernel.db
    .selectFrom("approvals")
    .select(["id", "conversation_id"])
    .where("status", "=", "pending")
    .where("expires_at", "<=", now)
    .execute();
  const expired: string[] = [];
  // Global lock (PostgreSQL): a tick step over due approvals only, rare.
  for (const a of due)
    if (await writeTransaction(kernel.db, (trx) => expireApproval(trx, now, a))) expired.push(a.id);
  return { expired };
}

/**
 * Outcome hook: a turn that ends (done, failed, cancelled — its worker finished it, or the reaper
 * did after the worker died) leaves nobody waiting for its pending requests: they are abandoned.
 */
export const abandonApprovalsReactor: OutcomeReactor = async (trx, o, clock) => {
  const now = clock.now();
  const pending = await trx
    .selectFrom("approvals")
    .select(["id", "conversation_id"])
    .where("queue_id", "=", o.queueId)
    .where("status", "=", "pending")
    .execute();
  for (const a of pending) {
    if (!(await moveApproval(trx, a.id, "abandoned", { answered_at: now }))) continue;
    await emit(trx, now, { kind: "approval.abandoned", conversationId: a.conversation_id, approvalId: a.id });
  }
};
