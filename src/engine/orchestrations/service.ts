import fs from "node:fs";
import type { Kysely } from "kysely";
import { z } from "zod";
import { performEffects, runUseCase, withEffects, type Kernel } from "../kernel.js";
import { writeTransaction, type OnCreated } from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import type { DB, Project } from "../schema.js";
import { enqueueIn } from "../conversations/index.js";
import { canPromptProject, findProjectByName, projectNotFound, type Actor } from "../projects/index.js";
import { assertChargeable } from "../usage/index.js";
import { composeDraft, correctionsPrompt, draftHash } from "./draft.js";
import {
  defaultDeps,
  GIT_CLAIM_MS,
  prepareClaimMs,
  runCancel,
  runMerge,
  runPrepare,
  runVerify,
  verifyClaimMs,
  type OrchestrationDeps,
  type StepResult,
} from "./effects.js";
import { canOrchestration, type OrchestrationAction } from "./machine.js";
import { insertOrchestration, transition, visibleOrchestration, type TransitionOptions } from "./store.js";
import { advanceAgent } from "./tick.js";
import type { Orchestration } from "./schema.js";
import { getOrchestration, orchestrationView, type OrchestrationView } from "./view.js";

/** What starting an orchestration takes (the seed's fields); tests are argv lists, never shell lines. */
const newOrchestrationSchema = z.object({
  name: z.string().trim().min(1).max(120),
  request: z.string().trim().min(1).max(20_000),
  acceptance_criteria: z.array(z.string().trim().min(1).max(2_000)).max(50).default([]),
  tests: z
    .array(
      z
        .array(
          z
            .string()
            .max(10_000)
            .refine((a) => !a.includes("\0")),
        )
        .min(1)
        .max(200)
        .refine((argv) => argv[0]!.trim() !== "", "a program to run"),
    )
    .max(20)
    .default([]),
  engine: z.literal("codex").default("codex"),
});

const projectRefSchema = z.object({ project_id: z.string().optional(), project: z.string().optional() });

/**
 * Starts an orchestration in DRAFT_REVIEW, its draft composed from the request and criteria. The
 * project is checked first: one the actor cannot see is "not found", whatever else was sent.
 */
export async function createOrchestration(
  engine: Kernel,
  actor: Actor,
  input: unknown,
  deps: OrchestrationDeps = defaultDeps(engine.config),
  opts: { onCreated?: OnCreated } = {},
): Promise<OrchestrationView> {
  const ref = projectRefSchema.safeParse(input);
  const wanted = ref.success ? (ref.data.project_id ?? ref.data.project ?? "") : "";
  const project =
    (await engine.db.selectFrom("projects").selectAll().where("id", "=", wanted).executeTakeFirst()) ??
    (wanted ? await findProjectByName(engine.db, wanted) : undefined);
  if (!project || !canPromptProject(actor, project)) throw await projectNotFound(engine.db, actor, wanted);
  const parsed = newOrchestrationSchema.safeParse(input);
  if (!parsed.success)
    throw new EngineError("invalid", "orch_invalid", {
      fields: [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "?")))].join(", "),
    });
  if (!(await deps.git.isRepository(project.path)))
    throw new EngineError("invalid", "orch_not_a_repository", { path: project.path });
  // A draft leads to the owner's turns: refused over budget before it is written, as a prompt is.
  await assertChargeable(engine, project.id, actor.userId);
  const { name, request, acceptance_criteria, tests, engine: agentEngine } = parsed.data;
  const now = engine.clock.now();
  const draft = composeDraft(engine.config.locale, {
    name,
    request,
    criteria: acceptance_criteria,
    tests,
    feedback: [],
  });
  const row: Orchestration = {
    id: newId(),
    project_id: project.id,
    owner_id: actor.userId,
    name,
    request,
    acceptance_criteria: JSON.stringify(acceptance_criteria),
    tests: JSON.stringify(tests),
    engine: agentEngine,
    status: "DRAFT_REVIEW",
    draft,
    draft_version: 1,
    draft_hash: draftHash(1, draft),
    draft_feedback: "[]",
    base_branch: null,
    base_revision: null,
    branch: null,
    worktree_path: null,
    conversation_id: null,
    queue_id: null,
    verified_revision: null,
    approved_revision: null,
    merged_revision: null,
    verification: null,
    last_error: null,
    claim_token: null,
    claim_expires_at: null,
    created_at: now,
    updated_at: now,
  };
  // Global lock (PostgreSQL): orchestration writes stay serialised with each other (person-driven, rare; events keep one order).
  await writeTransaction(engine.db, async (trx) => {
    await insertOrchestration(trx, row);
    await opts.onCreated?.(trx, row.id);
  });
  return orchestrationView(engine.db, row, project);
}

/**
 * One guarded move, for people's actions: the orchestration must be visible to the actor (else
 * not_found) and the action allowed from its status (else conflict). `check` may refuse more;
 * `within` does the action's other writes in the same transaction.
 */
async function act(
  engine: Kernel,
  actor: Actor,
  id: string,
  action: OrchestrationAction | ((row: Orchestration, project: Project) => OrchestrationAction),
  opts: {
    check?: (row: Orchestration, project: Project) => void;
    within?: (trx: Kysely<DB>, row: Orchestration) => Promise<TransitionOptions>;
    claimMs?: (row: Orchestration) => number;
  } = {},
): Promise<{ row: Orchestration; claimToken: string | null; action: OrchestrationAction }> {
  // Global lock (PostgreSQL): a person's transition reads, checks, then moves with a claim token; rare, not a hot path.
  return writeTransaction(engine.db, async (trx) => {
    const { row, project } = await visibleOrchestration(trx, actor, id);
    const chosen = typeof action === "function" ? action(row, project) : action;
    if (!canOrchestration(row.status, chosen))
      throw new EngineError("conflict", "orch_wrong_state", { status: row.status });
    opts.check?.(row, project);
    const extra = (await opts.within?.(trx, row)) ?? {};
    const moved = await transition(trx, engine.clock.now(), row, chosen, {
      ...extra,
      claimMs: opts.claimMs?.(row) ?? GIT_CLAIM_MS,
    });
    // A lost race: the transaction (and whatever `within` wrote) rolls back.
    if (!moved) throw new EngineError("conflict", "orch_wrong_state", { status: row.status });
    return { row, claimToken: moved.claimToken, action: chosen };
  });
}

/** Reads back after an action; a step that git refused is reported as the conflict it is. */
async function after(
  engine: Kernel,
  actor: Actor,
  id: string,
  step?: StepResult,
): Promise<OrchestrationView> {
  if (step?.ok === false) throw new EngineError("conflict", step.reason, step.params);
  if (step?.ok === true && step.effects) await performEffects(engine, step.effects);
  return getOrchestration(engine, actor, id);
}

const feedbackOf = (feedback: string): string => {
  const f = feedback.trim();
  if (!f) throw new EngineError("invalid", "orch_feedback_empty");
  return f; // whole: it becomes part of the draft and of the agent's prompt (Slack's modal caps it)
};

/** Refuses the draft with feedback: the next version includes it (and gets a new hash). */
export async function rejectDraft(
  engine: Kernel,
  actor: Actor,
  id: string,
  feedback: string,
): Promise<OrchestrationView> {
  const text = feedbackOf(feedback);
  await act(engine, actor, id, "reject_draft", {
    within: async (_trx, row) => {
      const all = [...(JSON.parse(row.draft_feedback) as string[]), text];
      const draft = composeDraft(engine.config.locale, {
        name: row.name,
        request: row.request,
        criteria: JSON.parse(row.acceptance_criteria) as string[],
        tests: JSON.parse(row.tests) as string[][],
        feedback: all,
      });
      const version = row.draft_version + 1;
      return {
        set: {
          draft,
          draft_version: version,
          draft_hash: draftHash(version, draft),
          draft_feedback: JSON.stringify(all),
        },
        event: { kind: "draft.rejected", detail: { version: row.draft_version, feedback: text } },
      };
    },
  });
  return getOrchestration(engine, actor, id);
}

/** Approves the draft the person read (its hash): clone and branch, then the agent starts there. */
export async function approveDraft(
  engine: Kernel,
  actor: Actor,
  id: string,
  hash: string,
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<OrchestrationView> {
  // The agent's turns are charged to the orchestration's owner (the prepare step queues them so).
  const { row } = await visibleOrchestration(engine.db, actor, id);
  await assertChargeable(engine, row.project_id, row.owner_id);
  const { claimToken } = await act(engine, actor, id, "approve_draft", {
    check: (row) => {
      if (row.draft_hash !== hash) throw new EngineError("conflict", "orch_stale_draft");
    },
    within: async (_trx, row) => ({
      set: { last_error: null },
      event: { kind: "draft.approved", detail: { version: row.draft_version, draft_hash: row.draft_hash } },
    }),
    claimMs: () => prepareClaimMs(engine.config),
  });
  return after(engine, actor, id, await runPrepare(engine, deps, id, claimToken!));
}

/** Runs the acceptance tests in the clone, on its content committed on the branch. */
export async function verifyOrchestration(
  engine: Kernel,
  actor: Actor,
  id: string,
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<OrchestrationView> {
  await visibleOrchestration(engine.db, actor, id);
  await advanceAgent(engine, id);
  const { claimToken } = await act(engine, actor, id, "verify", {
    claimMs: (row) => verifyClaimMs(deps, (JSON.parse(row.tests) as unknown[]).length),
  });
  return after(engine, actor, id, await runVerify(engine, deps, id, claimToken!));
}

/** Asks the agent for corrections: a new item in the same conversation, in the same clone. */
export async function requestCorrections(
  engine: Kernel,
  actor: Actor,
  id: string,
  feedback: string,
): Promise<OrchestrationView> {
  const text = feedbackOf(feedback);
  const { row: visible } = await visibleOrchestration(engine.db, actor, id);
  // The corrections' turn is charged to the person who asks for them.
  await assertChargeable(engine, visible.project_id, actor.userId);
  await advanceAgent(engine, id);
  await runUseCase(engine, async () => {
    await act(engine, actor, id, "corrections", {
      check: (row) => {
        if (!row.conversation_id || !row.worktree_path || !fs.existsSync(row.worktree_path))
          throw new EngineError("conflict", "orch_worktree_missing");
      },
      within: async (trx, row) => {
        const failedOutput = row.status === "VERIFICATION_FAILED" ? row.last_error : null;
        const prompt = correctionsPrompt(actor.locale ?? engine.config.locale, {
          name: row.name,
          feedback: text,
          failedOutput,
        });
        const item = await enqueueIn(trx, engine.clock, row.conversation_id!, prompt, {
          origin: "orchestration",
          requestedBy: actor.userId,
        });
        return {
          set: { queue_id: item.id, verified_revision: null, approved_revision: null, last_error: null },
          event: { kind: "corrections.requested", queueId: item.id, detail: { feedback: text } },
        };
      },
    });
    return withEffects(null, { dispatch: true });
  });
  return getOrchestration(engine, actor, id);
}

/**
 * Approves the verified revision the person reviewed (a stale one is refused): it then waits for
 * the merge confirmation when the project requires one, else it is merged at once.
 */
export async function approveRevision(
  engine: Kernel,
  actor: Actor,
  id: string,
  revision: string,
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<OrchestrationView> {
  const { claimToken, action } = await act(
    engine,
    actor,
    id,
    (_row, project) => (project.merge_confirmation_required === 1 ? "approve_revision" : "approve_and_merge"),
    {
      check: (row) => {
        if (!row.verified_revision || row.verified_revision !== revision)
          throw new EngineError("conflict", "orch_stale_revision");
      },
      within: async (_trx, row) => ({
        set: { approved_revision: row.verified_revision },
        event: { kind: "revision.approved", detail: { revision } },
      }),
    },
  );
  return after(
    engine,
    actor,
    id,
    action === "approve_and_merge" ? await runMerge(engine, deps, id, claimToken!) : undefined,
  );
}

/** Merges the approved revision into the main branch; only with an explicit confirmation. */
export async function mergeOrchestration(
  engine: Kernel,
  actor: Actor,
  id: string,
  opts: { confirm: boolean },
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<OrchestrationView> {
  const { claimToken } = await act(engine, actor, id, "confirm_merge", {
    check: () => {
      if (!opts.confirm) throw new EngineError("conflict", "orch_merge_unconfirmed");
    },
    within: async (_trx, row) => ({
      event: { kind: "merge.confirmed", detail: { revision: row.approved_revision } },
    }),
  });
  return after(engine, actor, id, await runMerge(engine, deps, id, claimToken!));
}

/** Declines the merge for now: back to review (the person may then ask for corrections). */
export async function declineMerge(engine: Kernel, actor: Actor, id: string): Promise<OrchestrationView> {
  await act(engine, actor, id, "decline_merge", {
    within: async () => ({ set: { approved_revision: null }, event: { kind: "merge.declined" } }),
  });
  return getOrchestration(engine, actor, id);
}

/** Cancels at any stage a person can act in: the agent is stopped, the clone and branch removed. */
export async function cancelOrchestration(
  engine: Kernel,
  actor: Actor,
  id: string,
  deps: OrchestrationDeps = defaultDeps(engine.config),
): Promise<OrchestrationView> {
  const { claimToken } = await act(engine, actor, id, "cancel", {
    within: async () => ({ event: { kind: "cancel.requested", detail: { by: actor.userId } } }),
  });
  // A cleanup that fails stays CANCELLING; the tick tries again when the claim expires.
  await runCancel(engine, deps, id, claimToken!);
  return getOrchestration(engine, actor, id);
}
