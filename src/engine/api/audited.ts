import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import { auditActorOf, recordAudit, refusalOf } from "../audit/index.js";
import { isEngineError } from "../errors.js";

/** How one use case is recorded: its action, what it acts on, and what detail is worth keeping. */
export interface AuditSpec<A extends unknown[]> {
  action: string;
  /** `project:<name>`, `conversation:<id>`, … from the use case's arguments. */
  target: (...args: A) => string;
  /** The project's name when the arguments say it (else it is found from a conversation target). */
  project?: (...args: A) => string | null | undefined;
  /** Free text kept, redacted and clipped (never a token: setForgeToken keeps none). */
  detail?: (...args: A) => string | null | undefined;
}

type Method = (...args: never[]) => unknown;

/** Specs for some methods of an API object (each taking the acting person first). */
export type AuditSpecs<T> = {
  [K in keyof T]?: T[K] extends (...args: infer A) => unknown ? AuditSpec<A> : never;
};

/** The project a target belongs to: a project's own name, else the project of what it names. */
async function projectOfTarget(kernel: Kernel, target: string): Promise<string | null> {
  const [kind, id] = target.split(/:(.*)/s) as [string, string | undefined];
  if (!id) return null;
  if (kind === "project") return id;
  const db = kernel.db;
  let projectId: string | undefined;
  if (kind === "conversation")
    projectId = (
      await db.selectFrom("conversations").select("project_id").where("id", "=", id).executeTakeFirst()
    )?.project_id;
  else if (kind === "schedule")
    projectId = (
      await db.selectFrom("schedules").select("project_id").where("id", "=", id).executeTakeFirst()
    )?.project_id;
  else if (kind === "memory")
    projectId = (
      await db.selectFrom("memory_notes").select("project_id").where("id", "=", id).executeTakeFirst()
    )?.project_id;
  else if (kind === "decision" || kind === "approval") {
    const table = kind === "decision" ? "decisions" : "approvals";
    const row = await db
      .selectFrom(table)
      .innerJoin(
        "conversations",
        "conversations.id",
        `${table}.conversation_id` as "decisions.conversation_id",
      )
      .select("conversations.project_id")
      .where(`${table}.id` as "decisions.id", "=", id)
      .executeTakeFirst();
    projectId = row?.project_id;
  }
  if (!projectId) return null;
  return (
    (await db.selectFrom("projects").select("name").where("id", "=", projectId).executeTakeFirst())?.name ??
    null
  );
}

/** The project the use case concerns, read before it runs (never failing the use case). */
async function projectBefore(kernel: Kernel, spec: AuditSpec<unknown[]>, args: unknown[]) {
  if (spec.project) return null;
  try {
    return await projectOfTarget(kernel, spec.target(...args));
  } catch {
    return null;
  }
}

async function record(
  kernel: Kernel,
  actor: Actor,
  spec: AuditSpec<unknown[]>,
  args: unknown[],
  outcome: { kind: "ok" | "refused" | "failed"; reason?: string | null },
  project: string | null,
): Promise<void> {
  try {
    const target = spec.target(...args);
    const who = auditActorOf(actor.userId, actor.via);
    await recordAudit(kernel.db, kernel.clock.now(), {
      ...who,
      action: spec.action,
      target,
      project: spec.project?.(...args) ?? project,
      outcome: outcome.kind,
      reason: outcome.reason ?? null,
      detail: spec.detail?.(...args) ?? null,
    });
  } catch (err) {
    // The trail must never turn a done change into an error the person sees.
    kernel.logger.warn({ err, action: spec.action }, "could not record an audit event");
  }
}

/**
 * The API object with each listed use case recorded in the audit trail: who (its first argument,
 * the acting person), what, on what, and how it ended (ok, refused with the error's reason, failed
 * with a short message). The one choke point of the front ends' changes.
 */
export function audited<T extends object>(kernel: Kernel, api: T, specs: AuditSpecs<T>): T {
  const out = { ...api } as Record<string, unknown>;
  for (const [name, spec] of Object.entries(specs) as Array<[string, AuditSpec<unknown[]>]>) {
    const fn = (api as Record<string, unknown>)[name] as Method;
    out[name] = async (...args: unknown[]) => {
      const actor = args[0] as Actor;
      // Read before the change: a removed schedule or project no longer says whose it was.
      const project = await projectBefore(kernel, spec, args);
      try {
        const value = await (fn as (...a: unknown[]) => unknown)(...args);
        const refused = refusalOf(value);
        const outcome = refused ? { kind: "refused" as const, reason: refused } : { kind: "ok" as const };
        await record(kernel, actor, spec, args, outcome, project);
        return value;
      } catch (err) {
        // A budget refusal names its budget, use and reset (refusalOf); other refusals their reason.
        const outcome = isEngineError(err)
          ? { kind: "refused" as const, reason: refusalOf(err) ?? `${err.code}: ${err.reason}` }
          : { kind: "failed" as const, reason: err instanceof Error ? err.message : String(err) };
        await record(kernel, actor, spec, args, outcome, project);
        throw err;
      }
    };
  }
  return out as T;
}
