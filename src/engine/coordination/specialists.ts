import { slugify } from "../protocol/index.js";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Kysely } from "kysely";
import { runUseCase, withEffects, type Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import type { DB, SpecialistAgentsTable } from "../schema.js";
import { answerOf, createConversation, enqueueIn } from "../conversations/index.js";
import { SPECIALIST_GROUP, type Actor } from "../projects/index.js";
import { assertNoOverlap, realPath } from "../projects/index.js";
import { parseSpecialistReady } from "../protocol/index.js";
import { t } from "../../i18n/index.js";
import { assertChargeable, assertWithinBudget } from "../usage/index.js";
import { failureText } from "../../i18n/failures.js";
import { canSpecialist, SPECIALIST_ACTIONS } from "./specialistMachine.js";
import { moveSpecialist } from "./coordinationStore.js";

/** A specialist as people and views see it. */
export interface SpecialistView {
  id: string;
  name: string;
  description: string;
  capabilities: string[];
  summary: string | null;
  status: SpecialistAgentsTable["status"];
  error: string;
  owner_id: string | null;
  project_id: string;
  full_access: false;
  workspace: string;
  bootstrap_conversation_id: string | null;
  bootstrap_queue_id: string | null;
}

/** Capabilities are dotted names: `design.interface`, `code.review`. */
const capabilitySchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/, "capability like design.interface");

/** What creating a specialist takes; the description must be a real sentence. */
const newSpecialistSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2)
    .max(60)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._'’()-]*$/u),
  description: z
    .string()
    .trim()
    .min(20)
    .max(1000)
    .refine(
      (d) => d.split(/\s+/).length >= 4 && /[.!?…]$/.test(d),
      "a sentence of at least four words, ending with punctuation",
    ),
  capabilities: z.array(capabilitySchema).min(1).max(20),
});

const view = (s: SpecialistAgentsTable, workspace: string): SpecialistView => ({
  id: s.id,
  name: s.name,
  description: s.description,
  capabilities: JSON.parse(s.capabilities) as string[],
  summary: s.summary,
  status: s.status,
  error: s.error,
  owner_id: s.owner_id,
  project_id: s.project_id,
  full_access: false,
  workspace,
  bootstrap_conversation_id: s.bootstrap_conversation_id,
  bootstrap_queue_id: s.bootstrap_queue_id,
});

/** May the actor use (see, rebuild, delegate to) this specialist? Its owner; shared ones: everyone. */
const canUse = (actor: Actor, s: { owner_id: string | null }) =>
  actor.isAdmin || s.owner_id === null || s.owner_id === actor.userId;

/**
 * Creates a specialist: a restricted workspace under `<data dir>/specialists/`, backed by a
 * `projects` row (never full access), and a bootstrap conversation in which the agent prepares
 * itself; it becomes ACTIVE when its answer carries CODEXPI_SPECIALIST_READY. Admins may create
 * shared specialists (no owner).
 */
export async function createSpecialist(
  engine: Kernel,
  actor: Actor,
  input: unknown,
  opts: { shared?: boolean } = {},
): Promise<SpecialistView> {
  const parsed = newSpecialistSchema.safeParse(input);
  if (!parsed.success)
    throw new EngineError("invalid", "specialist_invalid", {
      fields: parsed.error.issues.map((i) => i.path.join(".")).join(", "),
    });
  if (opts.shared && !actor.isAdmin) throw new EngineError("forbidden", "admins_only");
  const { name, description } = parsed.data;
  const capabilities = [...new Set(parsed.data.capabilities)];
  const id = newId();
  const workspace = path.join(
    engine.config.dataDir,
    "specialists",
    `${slugify(name, "specialist")}-${id.slice(0, 8)}`,
  );
  const owner = opts.shared ? null : actor.userId;
  // The bootstrap turn is charged to the owner. Its project does not exist yet (no budget can name
  // it), so the owner's budgets are what can be reached; a shared one (admins only) has no owner.
  if (owner) await assertWithinBudget(engine, { projectId: id, projectName: name, person: owner });
  fs.mkdirSync(workspace, { recursive: true });
  return runUseCase(engine, async () => {
    // Global lock (PostgreSQL): a person creates a specialist (project, conversation, bootstrap prompt together); rare.
    const created = await writeTransaction(engine.db, async (trx) => {
      const now = engine.clock.now();
      const projectId = newId();
      // A new workspace is a new directory, yet a project registered at or above it (one under
      // the data directory) would overlap it: projects never overlap, specialists' included.
      await assertNoOverlap(trx, workspace, realPath(workspace));
      await trx
        .insertInto("projects")
        .values({
          id: projectId,
          name: `${name} (${t(engine.config.locale, "specialist.project_suffix")} ${id.slice(0, 8)})`,
          path: workspace,
          owner_id: owner,
          full_access: 0,
          execution_group: SPECIALIST_GROUP,
          merge_confirmation_required: 0,
          channel_id: null,
          role: "project",
          created_at: now,
        })
        .execute();
      await trx
        .insertInto("specialist_agents")
        .values({
          id,
          name,
          description,
          capabilities: JSON.stringify(capabilities),
          summary: null,
          status: "BUILDING",
          error: "",
          owner_id: owner,
          project_id: projectId,
          bootstrap_conversation_id: null,
          bootstrap_queue_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await startBootstrap(engine, trx, id);
      return trx.selectFrom("specialist_agents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    });
    return withEffects(view(created, workspace), { dispatch: true });
  });
}

/** A FAILED specialist builds itself again in the same workspace, with a new bootstrap conversation. */
export async function rebuildSpecialist(engine: Kernel, actor: Actor, id: string): Promise<SpecialistView> {
  const rebuilt = await runUseCase(engine, async () => {
    // The new bootstrap turn is charged to the specialist's owner (a shared one: to no person).
    const s = await findSpecialist(engine.db, actor, id);
    await assertChargeable(engine, s.project_id, s.owner_id);
    // Global lock (PostgreSQL): a person's rebuild: check, guarded move, new bootstrap; rare.
    const rebuilt = await writeTransaction(engine.db, async (trx) => {
      const s = await findSpecialist(trx, actor, id);
      if (!canSpecialist(s.status, "rebuild"))
        throw new EngineError("conflict", "specialist_not_failed", { name: s.name });
      const moved = await moveSpecialist(
        trx,
        id,
        "BUILDING",
        { error: "", updated_at: engine.clock.now() },
        { from: SPECIALIST_ACTIONS.rebuild },
      );
      if (!moved) throw new EngineError("conflict", "specialist_not_failed", { name: s.name });
      await startBootstrap(engine, trx, id);
      return trx.selectFrom("specialist_agents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    });
    return withEffects(rebuilt, { dispatch: true });
  });
  return specialistView(engine.db, rebuilt);
}

async function startBootstrap(engine: Kernel, trx: Kysely<DB>, id: string): Promise<void> {
  const s = await trx
    .selectFrom("specialist_agents")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const locale = engine.config.locale;
  const conversation = await createConversation(
    trx,
    engine.clock,
    s.project_id,
    t(locale, "specialist.bootstrap_title", { name: s.name }),
    s.owner_id,
  );
  const prompt = t(locale, "prompt.specialist_bootstrap", {
    name: s.name,
    description: s.description,
    capabilities: (JSON.parse(s.capabilities) as string[]).join(", "),
  });
  const item = await enqueueIn(trx, engine.clock, conversation.id, prompt, {
    origin: "specialist_bootstrap",
    requestedBy: s.owner_id,
  });
  await trx
    .updateTable("specialist_agents")
    .set({
      bootstrap_conversation_id: conversation.id,
      bootstrap_queue_id: item.id,
      updated_at: engine.clock.now(),
    })
    .where("id", "=", id)
    .execute();
  await emit(trx, engine.clock.now(), { kind: "specialist.updated", specialistId: id, status: "BUILDING" });
}

async function findSpecialist(db: Kysely<DB>, actor: Actor, id: string): Promise<SpecialistAgentsTable> {
  const s = await db.selectFrom("specialist_agents").selectAll().where("id", "=", id).executeTakeFirst();
  if (!s || !canUse(actor, s)) throw new EngineError("not_found", "specialist_not_found", { name: id });
  return s;
}

async function specialistView(db: Kysely<DB>, s: SpecialistAgentsTable): Promise<SpecialistView> {
  const p = await db.selectFrom("projects").select("path").where("id", "=", s.project_id).executeTakeFirst();
  return view(s, p?.path ?? "");
}

/** One specialist the actor may use. */
export async function getSpecialist(db: Kysely<DB>, actor: Actor, id: string): Promise<SpecialistView> {
  return specialistView(db, await findSpecialist(db, actor, id));
}

/** The specialists the actor may use (theirs and shared ones; all for admins). */
export async function listSpecialists(db: Kysely<DB>, actor: Actor): Promise<SpecialistView[]> {
  const rows = await db
    .selectFrom("specialist_agents as s")
    .innerJoin("projects as p", "p.id", "s.project_id")
    .selectAll("s")
    .select("p.path")
    .orderBy("s.created_at")
    .execute();
  return rows.filter((s) => canUse(actor, s)).map((s) => view(s, s.path));
}

/**
 * Tick step: a BUILDING specialist whose bootstrap finished becomes ACTIVE (its declared
 * capabilities merged into the ones it was created with) when it answered READY, else FAILED.
 */
export async function processSpecialists(
  engine: Kernel,
): Promise<{ specialists_ready: number; specialists_failed: number }> {
  const { db, clock } = engine;
  let ready = 0;
  let failed = 0;
  const building = await db
    .selectFrom("specialist_agents as s")
    .innerJoin("prompt_queue as q", "q.id", "s.bootstrap_queue_id")
    .select(["s.id", "s.capabilities", "s.bootstrap_queue_id", "q.status as queue_status", "q.error"])
    .where("s.status", "=", "BUILDING")
    .where("q.status", "in", ["done", "failed", "cancelled"])
    .execute();
  for (const s of building) {
    const answer =
      s.queue_status === "done"
        ? ((await answerOf(db, s.bootstrap_queue_id as string))?.content ?? "")
        : null;
    const readyMarker = answer !== null ? parseSpecialistReady(answer) : null;
    const now = clock.now();
    const next = readyMarker
      ? {
          status: "ACTIVE" as const,
          capabilities: JSON.stringify([
            ...new Set([...(JSON.parse(s.capabilities) as string[]), ...readyMarker.capabilities]),
          ]),
          summary: readyMarker.summary,
          error: "",
        }
      : {
          status: "FAILED" as const,
          error:
            answer !== null
              ? t(engine.config.locale, "specialist.not_ready")
              : (failureText(engine.config.locale, s.error) ?? s.queue_status),
        };
    // Global lock (PostgreSQL): a tick step once per bootstrap; rare.
    const moved = await writeTransaction(db, async (trx) => {
      const { status, ...set } = next;
      const moved = await moveSpecialist(
        trx,
        s.id,
        status,
        { ...set, updated_at: now },
        { from: ["BUILDING"], bootstrapQueueId: s.bootstrap_queue_id },
      );
      if (moved) await emit(trx, now, { kind: "specialist.updated", specialistId: s.id, status });
      return moved;
    });
    if (moved && next.status === "ACTIVE") ready += 1;
    else if (moved) failed += 1;
  }
  return { specialists_ready: ready, specialists_failed: failed };
}
