import type { Kysely, Updateable } from "kysely";
import type { ApprovalsTable, DB } from "../schema.js";
import { guardFor } from "../stateMachine.js";
import { APPROVAL_TRANSITIONS, type ApprovalStatus } from "./machine.js";

// Every change of an approval's status goes through `moveApproval`: the from-states the table
// allows are in the WHERE (for every move today: `status = 'pending'`), so a double click, a click
// racing the expiry and a dying worker close a request at most once, and the caller learns
// whether it was the one that did.

/** Moves one approval to `to` (with `set`), guarded on the statuses the table lets into `to`. */
export async function moveApproval(
  trx: Kysely<DB>,
  id: string,
  to: ApprovalStatus,
  set: Omit<Updateable<ApprovalsTable>, "status"> = {},
): Promise<boolean> {
  const u = await trx
    .updateTable("approvals")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("approval", APPROVAL_TRANSITIONS, to))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}
