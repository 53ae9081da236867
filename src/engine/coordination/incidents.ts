import { sql, type Kysely, type Selectable } from "kysely";
import { runUseCase, withEffects, type Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import type { DB, IncidentsTable } from "../schema.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import { createConversation, enqueueIn } from "../conversations/index.js";
import { assertChargeable, budgetRefusalIn } from "../usage/index.js";
import { SPECIALIST_GROUP, type Actor } from "../projects/index.js";
import { EngineError } from "../errors.js";
import { parseSelfRepair } from "../protocol/index.js";
import { t } from "../../i18n/index.js";
import { finishSelfClone, withReport } from "../workspaces/index.js";
import { passText } from "../conversations/index.js";
import { failureText } from "../../i18n/failures.js";
import { quote } from "../text/index.js";
import { canIncident, INCIDENT_ACTIONS } from "./incidentMachine.js";
import { moveIncident } from "./coordinationStore.js";

/** An incident as people and views see it. */
export interface IncidentView {
  id: string;
  status: IncidentsTable["status"];
  auto_repair: boolean;
  error: string;
  error_code: string | null;
  conversation_id: string;
  project_id: string;
  project_name: string;
  repair_project_name: string | null;
  repair_conversation_id: string | null;
  resolution: string | null;
  created_at: number;
}

/** Origins whose failure is a person's failure: only plain conversations open incidents. */
const PLAIN_ORIGINS = new Set(["user", "decision_answer", "specialist_result"]);

/**
 * Outcome hook: a failed item of a plain conversation opens an incident (once per item). Runs,
 * orchestrations, delegations and specialists handle their own failures; a repair never opens
 * one (no repair loops); a stop asked by a person is no incident.
 */
export const openIncidentReactor: OutcomeReactor = async (trx, o, clock) => {
  if (o.status !== "failed") return;
  const item = await trx
    .selectFrom("prompt_queue")
    .select(["origin_kind", "error_code"])
    .where("id", "=", o.queueId)
    .executeTakeFirst();
  if (item && !PLAIN_ORIGINS.has(item.origin_kind)) return;
  const c = await trx
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select(["c.user_id", "c.project_id", "p.role", "p.execution_group"])
    .where("c.id", "=", o.conversationId)
    .executeTakeFirst();
  if (!c || c.role === "self" || c.execution_group === SPECIALIST_GROUP) return;
  // Runs and orchestrations handle their own failures, whatever the origin of the failed item.
  const owned =
    (await trx
      .selectFrom("orchestrations")
      .select("id")
      .where("conversation_id", "=", o.conversationId)
      .executeTakeFirst()) ??
    (await trx
      .selectFrom("remediation_step_runs")
      .select("id")
      .where("conversation_id", "=", o.conversationId)
      .executeTakeFirst()) ??
    (await trx
      .selectFrom("remediation_runs")
      .select("id")
      .where("master_conversation_id", "=", o.conversationId)
      .executeTakeFirst());
  if (owned) return;
  const now = clock.now();
  const id = newId();
  const inserted = await trx
    .insertInto("incidents")
    .values({
      id,
      conversation_id: o.conversationId,
      queue_id: o.queueId,
      project_id: c.project_id,
      user_id: c.user_id,
      status: "OPEN",
      error: o.error ?? "",
      error_code: item?.error_code ?? null,
      auto_repair: 1,
      repair_project_id: null,
      repair_conversation_id: null,
      repair_queue_id: null,
      resolution: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("queue_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
    await emit(trx, now, { kind: "incident.opened", incidentId: id, status: "OPEN" });
};

/**
 * Tick step: sends open incidents to self-repair (a restricted agent in its own clone of the self
 * project, the failure quoted as untrusted data) and closes repairs that finished, their report
 * naming the branch the work is on. Guarded transitions: a second tick changes nothing.
 */
export async function processIncidents(
  engine: Kernel,
): Promise<{ incidents_repairing: number; incidents_closed: number }> {
  const repairing = await startRepairs(engine);
  const closed = await closeRepairs(engine);
  return { incidents_repairing: repairing, incidents_closed: closed };
}

/** Sends up to 20 open incidents to self-repair; how many started (none without a self project). */
async function startRepairs(engine: Kernel): Promise<number> {
  const { db } = engine;
  let repairing = 0;
  const open = await db
    .selectFrom("incidents")
    .selectAll()
    .where("status", "=", "OPEN")
    .where("auto_repair", "=", 1)
    .limit(20)
    .execute();
  // Repeats the partial index's own condition (as a literal) so that SQLite can use that index.
  const self = open.length
    ? await db
        .selectFrom("projects")
        .selectAll()
        .where("role", "<>", sql.lit("project"))
        .where("role", "=", "self")
        .executeTakeFirst()
    : undefined;
  for (const incident of self ? open : []) {
    if (await startRepair(engine, incident, self!.id)) repairing += 1;
  }
  return repairing;
}

/**
 * Starts one repair: a conversation in the self project, its prompt quoting the failure, the
 * incident moved to REPAIRING. False when another tick moved the incident first.
 */
async function startRepair(engine: Kernel, incident: Selectable<IncidentsTable>, selfId: string) {
  const { db, clock } = engine;
  const locale = engine.config.locale;
  // Global lock (PostgreSQL): starts a repair (conversation, clone record, prompt) after reading the incident; a tick step.
  return writeTransaction(db, async (trx) => {
    const now = clock.now();
    // A repair is charged to the self project and to no person (nobody asked for it). Over that
    // project's budget the incident stays open and is sent to repair once the budget allows.
    const self = await trx
      .selectFrom("projects")
      .select("name")
      .where("id", "=", selfId)
      .executeTakeFirstOrThrow();
    if (await budgetRefusalIn(trx, engine, { projectId: selfId, projectName: self.name, person: null }))
      return false;
    const project = await trx
      .selectFrom("projects")
      .select("name")
      .where("id", "=", incident.project_id)
      .executeTakeFirst();
    const conversation = await createConversation(
      trx,
      clock,
      selfId,
      t(locale, "incident.repair_title", { project: project?.name ?? "?" }),
      null,
    );
    const error = passText(
      { locale, dataDir: engine.config.dataDir },
      conversation.id,
      failureText(locale, incident.error),
    );
    const prompt = t(locale, "prompt.incident_repair", {
      project: project?.name ?? "?",
      code: incident.error_code ?? "?",
      error: quote(error),
    });
    const item = await enqueueIn(trx, clock, conversation.id, prompt, { origin: "repair" });
    const moved = await moveIncident(trx, incident.id, "REPAIRING", {
      repair_project_id: selfId,
      repair_conversation_id: conversation.id,
      repair_queue_id: item.id,
      updated_at: now,
    });
    if (!moved) throw new Rollback();
    await emit(trx, now, { kind: "incident.updated", incidentId: incident.id, status: "REPAIRING" });
    return true;
  }).catch((err) => (err instanceof Rollback ? false : Promise.reject(err)));
}

/** Closes the repairs whose item ended; how many were closed. */
async function closeRepairs(engine: Kernel): Promise<number> {
  let closed = 0;
  const active = await engine.db
    .selectFrom("incidents as i")
    .innerJoin("prompt_queue as q", "q.id", "i.repair_queue_id")
    .select(["i.id", "i.repair_conversation_id", "q.id as queue_id", "q.status as queue_status", "q.error"])
    .where("i.status", "=", "REPAIRING")
    .where("q.status", "in", ["done", "failed", "cancelled"])
    .execute();
  for (const r of active) {
    if (await closeRepair(engine, r)) closed += 1;
  }
  return closed;
}

/**
 * RESOLVED when the repair finished without needing a person, else FAILED; the resolution is the
 * repair's feedback (or answer, or error) with the report naming its branch.
 */
async function closeRepair(
  engine: Kernel,
  r: {
    id: string;
    repair_conversation_id: string | null;
    queue_id: string;
    queue_status: string;
    error: string | null;
  },
): Promise<boolean> {
  const { db, clock } = engine;
  const answer =
    r.queue_status === "done"
      ? ((
          await db
            .selectFrom("messages")
            .select("content")
            .where("queue_id", "=", r.queue_id)
            .where("role", "=", "assistant")
            .executeTakeFirst()
        )?.content ?? "")
      : null;
  const verdict = answer !== null ? parseSelfRepair(answer) : null;
  const status = r.queue_status === "done" && verdict?.decision !== "needs_user" ? "RESOLVED" : "FAILED";
  // The repair's work is committed on its clone's branch before the report names that branch
  // (git, outside the transaction); nothing merges or deploys it.
  const report = r.repair_conversation_id ? await finishSelfClone(engine, r.repair_conversation_id) : null;
  const resolution = withReport(verdict?.feedback || answer || r.error || "", report);
  // Global lock (PostgreSQL): a tick step once per repair; rare.
  return writeTransaction(db, async (trx) => {
    const moved = await moveIncident(trx, r.id, status, { resolution, updated_at: clock.now() }, [
      "REPAIRING",
    ]);
    if (moved) await emit(trx, clock.now(), { kind: "incident.updated", incidentId: r.id, status });
    return moved;
  });
}

class Rollback extends Error {}

/** Incidents with what their views need, restricted in SQL to those the actor may see. */
function visibleIncidents(db: Kysely<DB>, actor: Actor) {
  const q = db
    .selectFrom("incidents as i")
    .innerJoin("projects as p", "p.id", "i.project_id")
    .leftJoin("projects as r", "r.id", "i.repair_project_id")
    .select([
      "i.id",
      "i.status",
      "i.auto_repair",
      "i.error",
      "i.error_code",
      "i.conversation_id",
      "i.project_id",
      "i.resolution",
      "i.created_at",
      "p.name as project_name",
      "r.name as repair_project_name",
      "i.repair_conversation_id",
    ]);
  // Theirs, or of a project they own (which they always see); all for admins. In the WHERE, not
  // after a LIMIT: a filter applied to the newest rows loses older visible ones.
  return actor.isAdmin
    ? q
    : q.where((eb) => eb.or([eb("i.user_id", "=", actor.userId), eb("p.owner_id", "=", actor.userId)]));
}

type IncidentRow = Awaited<ReturnType<ReturnType<typeof visibleIncidents>["executeTakeFirstOrThrow"]>>;

const incidentView = (r: IncidentRow): IncidentView => ({ ...r, auto_repair: r.auto_repair === 1 });

/** Incidents the actor may see: of their conversations or of projects they own; all for admins. */
export async function listIncidents(
  db: Kysely<DB>,
  actor: Actor,
  opts: { all?: boolean } = {},
): Promise<IncidentView[]> {
  let q = visibleIncidents(db, actor).orderBy("i.created_at", "desc").limit(200);
  if (!opts.all) q = q.where("i.status", "in", ["OPEN", "REPAIRING", "FAILED"]);
  return (await q.execute()).map(incidentView);
}

/** One incident the actor may see, by id (however old), or undefined. */
export async function findIncident(
  db: Kysely<DB>,
  actor: Actor,
  id: string,
): Promise<IncidentView | undefined> {
  const row = await visibleIncidents(db, actor).where("i.id", "=", id).executeTakeFirst();
  return row && incidentView(row);
}

/** One incident the actor may see, by id, or not_found. */
export async function getIncident(db: Kysely<DB>, actor: Actor, id: string): Promise<IncidentView> {
  const incident = await findIncident(db, actor, id);
  if (!incident) throw new EngineError("not_found", "incident_not_found", { name: id });
  return incident;
}

/**
 * Runs the failed prompt again in its conversation (same Codex thread), for the person who asked,
 * the project's owner or an admin; the incident is closed as retried. Idempotent: a closed
 * incident is not retried twice.
 */
export async function retryIncident(
  engine: Kernel,
  actor: Actor,
  incidentId: string,
): Promise<{ queueId: string }> {
  const { db, clock } = engine;
  return runUseCase(engine, async () => {
    // The retry is the person's own turn (its `requestedBy`): their budgets and the project's first.
    const incident = await getIncident(db, actor, incidentId);
    await assertChargeable(engine, incident.project_id, actor.userId);
    // Global lock (PostgreSQL): a person's retry: read, check, queue; rare.
    const queueId = await writeTransaction(db, async (trx) => {
      const visible = await getIncident(trx, actor, incidentId);
      if (!canIncident(visible.status, "retry")) throw new EngineError("conflict", "incident_not_retryable");
      const row = await trx
        .selectFrom("incidents")
        .select(["queue_id", "conversation_id"])
        .where("id", "=", incidentId)
        .executeTakeFirstOrThrow();
      const failed = await trx
        .selectFrom("prompt_queue")
        .select("content")
        .where("id", "=", row.queue_id)
        .executeTakeFirst();
      if (!failed) throw new EngineError("conflict", "incident_not_retryable");
      const item = await enqueueIn(trx, clock, row.conversation_id, failed.content, {
        origin: "user",
        requestedBy: actor.userId,
      });
      const retried = await moveIncident(
        trx,
        incidentId,
        "RESOLVED",
        { resolution: t(engine.config.locale, "incident.retried"), updated_at: clock.now() },
        INCIDENT_ACTIONS.retry,
      );
      if (!retried) throw new EngineError("conflict", "incident_not_retryable");
      await emit(trx, clock.now(), { kind: "incident.updated", incidentId, status: "RESOLVED" });
      return item.id;
    });
    return withEffects({ queueId }, { dispatch: true });
  });
}
