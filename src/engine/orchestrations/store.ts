import type { Kysely, Updateable } from "kysely";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import type { DB, Project } from "../schema.js";
import type { Actor } from "../projects/index.js";
import { guardFor } from "../stateMachine.js";
import {
  CLAIMED_STATUSES,
  nextStatus,
  ORCHESTRATION_TRANSITIONS,
  type OrchestrationAction,
  type OrchestrationStatus,
} from "./machine.js";
import type { Orchestration, OrchestrationsTable } from "./schema.js";

// This aggregate's queries. Every change of status goes through `transition`, then
// `moveOrchestration`: guarded on the status that was read, checked against the transition table
// (and on the claim, for the step that holds one), with its history event and its outbox event in
// the caller's transaction.

/** One entry of an orchestration's history. */
export interface OrchestrationEvent {
  kind: string;
  queue_id: string | null;
  detail: Record<string, unknown>;
  created_at: number;
}

/**
 * Who may see and act on an orchestration: admins, the project's owner, and the person who
 * started it (the only one besides admins for a legacy project without owner).
 */
function canAct(
  actor: Actor,
  o: Pick<Orchestration, "owner_id">,
  project: Pick<Project, "owner_id">,
): boolean {
  return (
    actor.isAdmin ||
    project.owner_id === actor.userId ||
    (project.owner_id === null && o.owner_id === actor.userId)
  );
}

/** An orchestration and its project, if the actor may act on it; else not_found, as if absent. */
export async function visibleOrchestration(
  db: Kysely<DB>,
  actor: Actor,
  id: string,
): Promise<{ row: Orchestration; project: Project }> {
  const row = await findOrchestration(db, id);
  const project =
    row && (await db.selectFrom("projects").selectAll().where("id", "=", row.project_id).executeTakeFirst());
  if (!row || !project || !canAct(actor, row, project))
    throw new EngineError("not_found", "orch_not_found", { name: id });
  return { row, project };
}

/** Reads one orchestration. */
export function findOrchestration(db: Kysely<DB>, id: string): Promise<Orchestration | undefined> {
  return db.selectFrom("orchestrations").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Writes a new orchestration with its `created` event. */
export async function insertOrchestration(trx: Kysely<DB>, row: Orchestration): Promise<void> {
  await trx.insertInto("orchestrations").values(row).execute();
  await addEvent(trx, row.id, "created", { draft_version: row.draft_version }, row.created_at);
  await emit(trx, row.created_at, {
    kind: "orchestration.updated",
    orchestrationId: row.id,
    status: row.status,
  });
}

/** A history event; one per (queue item, kind) when it names an item, whatever retries happen. */
async function addEvent(
  trx: Kysely<DB>,
  orchestrationId: string,
  kind: string,
  detail: Record<string, unknown>,
  now: number,
  queueId: string | null = null,
): Promise<void> {
  await trx
    .insertInto("orchestration_events")
    .values({
      orchestration_id: orchestrationId,
      kind,
      queue_id: queueId,
      detail: JSON.stringify(detail),
      created_at: now,
    })
    .onConflict((oc) => oc.columns(["queue_id", "kind"]).doNothing())
    .execute();
}

/** What a transition writes besides the status. */
export interface TransitionOptions {
  set?: Updateable<OrchestrationsTable>;
  event?: { kind: string; detail?: Record<string, unknown>; queueId?: string | null };
  /** The claim the caller holds: the write only happens if it still holds it. */
  claimToken?: string;
  /** How long a step entered by this transition may hold its claim. */
  claimMs?: number;
}

/**
 * Moves one orchestration to `to` (with `set`), guarded on `from` (checked against the table by
 * `guardFor`) and, when given, on the claim its caller holds. Whether the row moved: a lost race
 * is an answer, not an exception.
 */
export async function moveOrchestration(
  trx: Kysely<DB>,
  id: string,
  to: OrchestrationStatus,
  from: readonly OrchestrationStatus[],
  set: Omit<Updateable<OrchestrationsTable>, "status"> = {},
  claimToken?: string,
): Promise<boolean> {
  let q = trx
    .updateTable("orchestrations")
    .set({ ...set, status: to })
    .where("id", "=", id)
    .where("status", "in", guardFor("orchestration", ORCHESTRATION_TRANSITIONS, to, from));
  if (claimToken !== undefined) q = q.where("claim_token", "=", claimToken);
  const moved = await q.executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/**
 * Applies `action` to an orchestration read as `from`: null when the table refuses it or when
 * someone else moved it first (the guard matched nothing). Entering a claimed status takes a new
 * claim (returned as `claimToken`); leaving one releases it.
 */
export async function transition(
  trx: Kysely<DB>,
  now: number,
  from: Pick<Orchestration, "id" | "status">,
  action: OrchestrationAction,
  opts: TransitionOptions = {},
): Promise<{ status: OrchestrationStatus; claimToken: string | null } | null> {
  const to = nextStatus(from.status, action);
  if (!to) return null;
  const claimed = (CLAIMED_STATUSES as readonly string[]).includes(to);
  const claimToken = claimed ? newId() : null;
  const set = {
    ...opts.set,
    claim_token: claimToken,
    claim_expires_at: claimed ? now + (opts.claimMs ?? 120_000) : null,
    updated_at: now,
  };
  if (!(await moveOrchestration(trx, from.id, to, [from.status], set, opts.claimToken))) return null;
  if (opts.event)
    await addEvent(trx, from.id, opts.event.kind, opts.event.detail ?? {}, now, opts.event.queueId ?? null);
  await emit(trx, now, { kind: "orchestration.updated", orchestrationId: from.id, status: to });
  return { status: to, claimToken };
}

/** An orchestration's history, oldest first. */
export async function eventsOf(db: Kysely<DB>, id: string): Promise<OrchestrationEvent[]> {
  const rows = await db
    .selectFrom("orchestration_events")
    .select(["kind", "queue_id", "detail", "created_at"])
    .where("orchestration_id", "=", id)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    queue_id: r.queue_id,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    created_at: r.created_at,
  }));
}

/** The orchestrations an actor may act on, newest first. */
export async function visibleOrchestrations(
  db: Kysely<DB>,
  actor: Actor,
  opts: { limit?: number } = {},
): Promise<Array<{ row: Orchestration; project: Project }>> {
  let q = db
    .selectFrom("orchestrations as o")
    .innerJoin("projects as p", "p.id", "o.project_id")
    .selectAll("o")
    .select(["p.owner_id as project_owner_id"]);
  // `canAct` in SQL, before the LIMIT: filtering the newest rows afterwards loses older visible ones.
  if (!actor.isAdmin) {
    q = q.where((eb) =>
      eb.or([
        eb("p.owner_id", "=", actor.userId),
        eb.and([eb("p.owner_id", "is", null), eb("o.owner_id", "=", actor.userId)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("o.created_at", "desc")
    .limit(opts.limit ?? 50)
    .execute();
  const mine = rows.filter((r) => canAct(actor, r, { owner_id: r.project_owner_id }));
  const projects = new Map<string, Project>();
  for (const r of mine) {
    if (!projects.has(r.project_id))
      projects.set(
        r.project_id,
        await db.selectFrom("projects").selectAll().where("id", "=", r.project_id).executeTakeFirstOrThrow(),
      );
  }
  return mine.map(({ project_owner_id: _, ...row }) => ({ row, project: projects.get(row.project_id)! }));
}

/** Tick: orchestrations whose agent item has ended (done, failed or cancelled). */
export function withEndedAgent(db: Kysely<DB>) {
  return db
    .selectFrom("orchestrations as o")
    .innerJoin("prompt_queue as q", "q.id", "o.queue_id")
    .select(["o.id"])
    .where("o.status", "=", "AGENT_RUNNING")
    .where("q.status", "in", ["done", "failed", "cancelled"])
    .limit(50)
    .execute();
}

/** Tick: steps whose claim expired (the process that held it died or hung). */
export function withExpiredClaim(db: Kysely<DB>, now: number) {
  return db
    .selectFrom("orchestrations")
    .select(["id"])
    .where("status", "in", [...CLAIMED_STATUSES])
    .where("claim_expires_at", "<", now)
    .limit(20)
    .execute();
}
