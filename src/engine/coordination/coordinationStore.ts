import type { Kysely, Updateable } from "kysely";
import type {
  DB,
  DelegationStatus,
  IncidentsTable,
  IncidentStatus,
  SpecialistAgentsTable,
  SpecialistDelegationsTable,
  SpecialistStatus,
} from "../schema.js";
import { guardFor } from "../stateMachine.js";
import { DELEGATION_TRANSITIONS } from "./delegationMachine.js";
import { INCIDENT_TRANSITIONS } from "./incidentMachine.js";
import { SPECIALIST_TRANSITIONS } from "./specialistMachine.js";

// The guarded moves of incidents, specialists and delegations: the from-states the table allows
// (or the caller's narrower list) are in the WHERE, so a second tick or click moves nothing, and
// the caller learns whether it moved. The only way these statuses change after insert.

const moved = (u: { numUpdatedRows: bigint }): boolean => Number(u.numUpdatedRows) === 1;

/** Moves one incident to `to`; returns whether it moved. */
export async function moveIncident(
  trx: Kysely<DB>,
  id: string,
  to: IncidentStatus,
  set: Omit<Updateable<IncidentsTable>, "status"> = {},
  from?: readonly IncidentStatus[],
): Promise<boolean> {
  const u = await trx
    .updateTable("incidents")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("incident", INCIDENT_TRANSITIONS, to, from))
    .executeTakeFirst();
  return moved(u);
}

/** Moves one specialist to `to`, also fenced on its bootstrap item when given; returns whether it moved. */
export async function moveSpecialist(
  trx: Kysely<DB>,
  id: string,
  to: SpecialistStatus,
  set: Omit<Updateable<SpecialistAgentsTable>, "status"> = {},
  fence: { from?: readonly SpecialistStatus[]; bootstrapQueueId?: string | null } = {},
): Promise<boolean> {
  let q = trx
    .updateTable("specialist_agents")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("specialist", SPECIALIST_TRANSITIONS, to, fence.from));
  if (fence.bootstrapQueueId !== undefined)
    q = q.where("bootstrap_queue_id", fence.bootstrapQueueId === null ? "is" : "=", fence.bootstrapQueueId);
  return moved(await q.executeTakeFirst());
}

/** Which delegation rows a move targets: one by id, or the one working in a specialist's conversation. */
export type DelegationTarget = { id: string; queueId?: string | null } | { specialistConversationId: string };

/**
 * Moves the targeted delegation(s) to `to`, guarded on `from` (checked against the table) and,
 * for an id, on the item it was read with when given. Returns how many moved.
 */
export async function moveDelegation(
  trx: Kysely<DB>,
  target: DelegationTarget,
  to: DelegationStatus,
  set: Omit<Updateable<SpecialistDelegationsTable>, "status"> = {},
  from?: readonly DelegationStatus[],
): Promise<number> {
  let q = trx
    .updateTable("specialist_delegations")
    .set({ ...set, status: to })
    .where("status", "in", guardFor("delegation", DELEGATION_TRANSITIONS, to, from));
  if ("specialistConversationId" in target)
    q = q.where("specialist_conversation_id", "=", target.specialistConversationId);
  else {
    q = q.where("id", "=", target.id);
    if (target.queueId !== undefined)
      q = q.where("queue_id", target.queueId === null ? "is" : "=", target.queueId);
  }
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}
