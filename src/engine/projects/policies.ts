import { z } from "zod";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DB } from "../schema.js";
import { EngineError } from "../errors.js";

/** The global runtime policy: concurrency, pause thresholds and the background window. */
export interface RuntimePolicy {
  max_concurrent: number;
  load_pause_percent: number;
  memory_pause_percent: number;
  background_start_hour: number;
  background_end_hour: number;
}

/**
 * Defaults: two agents; pause when the load average is 1.5 times the cores (agents mostly wait on
 * the model, so a busy host is not yet an overloaded one) or memory is 90 % used; the background
 * window is always open.
 */
const DEFAULT_POLICY: RuntimePolicy = {
  max_concurrent: 2,
  load_pause_percent: 150,
  memory_pause_percent: 90,
  background_start_hour: 0,
  background_end_hour: 0,
};

const hour = z.number().int().min(0).max(23);
/** What a user may submit as the global policy. */
const runtimePolicySchema = z.object({
  max_concurrent: z.number().int().min(1).max(64),
  load_pause_percent: z.number().int().min(1).max(1000),
  memory_pause_percent: z.number().int().min(1).max(100),
  background_start_hour: hour,
  background_end_hour: hour,
});

/**
 * Whether the background window is open at `hour` (local time). Half-open [start, end); a window
 * whose end is before its start wraps midnight; start == end means always open.
 */
export function backgroundWindowOpen(start: number, end: number, hour: number): boolean {
  if (start === end) return true;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/** Reads the global policy, filling unset fields with defaults. */
export async function globalPolicy(db: Kysely<DB>): Promise<RuntimePolicy> {
  const row = await db
    .selectFrom("runtime_policies")
    .selectAll()
    .where("scope", "=", "global")
    .executeTakeFirst();
  return {
    max_concurrent: row?.max_concurrent ?? DEFAULT_POLICY.max_concurrent,
    load_pause_percent: row?.load_pause_percent ?? DEFAULT_POLICY.load_pause_percent,
    memory_pause_percent: row?.memory_pause_percent ?? DEFAULT_POLICY.memory_pause_percent,
    background_start_hour: row?.background_start_hour ?? DEFAULT_POLICY.background_start_hour,
    background_end_hour: row?.background_end_hour ?? DEFAULT_POLICY.background_end_hour,
  };
}

/**
 * Per-project concurrency overrides, keyed by project id: of the given projects (a primary-key
 * lookup, for the dispatcher's hot path), or of all of them (for listings).
 */
export async function projectOverrides(db: Kysely<DB>, projectIds?: string[]): Promise<Map<string, number>> {
  if (projectIds && projectIds.length === 0) return new Map();
  let q = db
    .selectFrom("runtime_policies")
    .select(["scope", "max_concurrent"])
    .where("max_concurrent", "is not", null);
  q = projectIds ? q.where("scope", "in", projectIds) : q.where("scope", "<>", "global");
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.scope, r.max_concurrent as number]));
}

/** The concurrency limit that applies to a project: its override, else the global one (S-Q-02). */
export async function concurrentAgentLimit(db: Kysely<DB>, projectId: string): Promise<number> {
  const override = (await projectOverrides(db, [projectId])).get(projectId);
  return override ?? (await globalPolicy(db)).max_concurrent;
}

/** Saves the global policy after validating it. */
export async function updateGlobalPolicy(
  db: Kysely<DB>,
  clock: Clock,
  input: unknown,
  by: string,
): Promise<RuntimePolicy> {
  const parsed = runtimePolicySchema.safeParse(input);
  if (!parsed.success) {
    throw new EngineError("invalid", "policy_invalid", {
      fields: parsed.error.issues.map((i) => i.path.join(".")).join(", "),
    });
  }
  const values = { ...parsed.data, updated_by: by, updated_at: clock.now() };
  await db
    .insertInto("runtime_policies")
    .values({ scope: "global", ...values })
    .onConflict((oc) => oc.column("scope").doUpdateSet(values))
    .execute();
  return parsed.data;
}

/** Sets (or clears, with null) a project's concurrency override. */
export async function setProjectLimit(
  db: Kysely<DB>,
  clock: Clock,
  projectId: string,
  max: number | null,
  by: string,
): Promise<void> {
  if (max !== null && (!Number.isInteger(max) || max < 1 || max > 64)) {
    throw new EngineError("invalid", "limit_invalid");
  }
  if (max === null) {
    await db.deleteFrom("runtime_policies").where("scope", "=", projectId).execute();
    return;
  }
  const values = { max_concurrent: max, updated_by: by, updated_at: clock.now() };
  await db
    .insertInto("runtime_policies")
    .values({ scope: projectId, ...values })
    .onConflict((oc) => oc.column("scope").doUpdateSet(values))
    .execute();
}

/** The policy listing: the global policy and every project with its effective limit (S-Q-02). */
export async function runtimePolicies(db: Kysely<DB>) {
  const global = await globalPolicy(db);
  const overrides = await projectOverrides(db);
  const projects = await db
    .selectFrom("projects")
    .select(["id", "name", "owner_id"])
    .orderBy("name")
    .execute();
  return {
    global,
    projects: projects.map((p) => ({
      id: p.id,
      name: p.name,
      owner_id: p.owner_id,
      max_concurrent_override: overrides.get(p.id) ?? null,
      effective_max_concurrent: overrides.get(p.id) ?? global.max_concurrent,
    })),
  };
}
