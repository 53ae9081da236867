import { prepareWorkspace, SetupFailed } from "../setup/index.js";
import fs from "node:fs";
import path from "node:path";
import { performEffects, type Effects, type Kernel } from "../kernel.js";
import { writeTransaction } from "../database.js";
import { createConversation, enqueueIn } from "../conversations/index.js";
import { capText } from "../text/index.js";
import type { EngineErrorReason } from "../errors.js";
import { t } from "../../i18n/index.js";
import { branchName, clonePath, startPrompt } from "./draft.js";
import { gitPort, type MergeResult, type OrchestrationGit } from "./git.js";
import { findOrchestration, transition } from "./store.js";
import { failureSummary, runTests, type TestRunner, type VerificationRecord } from "./verification.js";
import type { Orchestration } from "./schema.js";
import { canOrchestration, statusesAllowing, type OrchestrationAction } from "./machine.js";
import { failureNote } from "../../i18n/failures.js";
import type { Config } from "../../config.js";

// The steps that touch git or run tests. Each runs after its claim committed (a claimed status
// with a token), does its work outside any transaction, then records the result guarded on that
// token: a step whose claim expired and was taken over records nothing. Each step is idempotent,
// so the tick can run it again after a crash.

/** The ports orchestrations use; tests inject fakes or shorter limits. */
export interface OrchestrationDeps {
  git: OrchestrationGit;
  runTests: TestRunner;
  /** Wall-clock limit of one acceptance test. */
  testTimeoutMs: number;
}

/** Production ports: git and tests jailed as the operator configured, ten minutes per test. */
export const defaultDeps = (config: Pick<Config, "jail">): OrchestrationDeps => ({
  git: gitPort(config.jail),
  runTests,
  testTimeoutMs: 10 * 60_000,
});

/** How long a claim lasts before the tick may take the step over (git steps are quick). */
export const GIT_CLAIM_MS = 2 * 60_000;
/** Preparing runs the project's setup too: no take-over before its time limit has passed. */
export const prepareClaimMs = (config: Pick<Config, "setupTimeoutMs">) =>
  GIT_CLAIM_MS + config.setupTimeoutMs;
export const verifyClaimMs = (deps: OrchestrationDeps, tests: number) =>
  tests * deps.testTimeoutMs + GIT_CLAIM_MS;

/**
 * What a step ended with: done (its result recorded), refused by git (recorded too, and reported
 * to the person as this reason), or `lost` when its claim was no longer held (nothing recorded).
 */
export type StepResult =
  | { ok: true; effects?: Effects }
  | { ok: false; reason: EngineErrorReason; params: Record<string, string> }
  | { ok: "lost" };

const LOST: StepResult = { ok: "lost" };
const MERGE_REASONS = {
  main_dirty: "orch_main_dirty",
  main_moved: "orch_main_moved",
  conflict: "orch_merge_conflict",
} as const;

/**
 * The orchestration, if its claim is still `token` and it still allows `records` (the move the
 * step records when done): a step taken over, or an orchestration moved on, runs nothing.
 */
async function claimed(
  engine: Kernel,
  id: string,
  records: OrchestrationAction,
  token: string,
): Promise<Orchestration | null> {
  const o = await findOrchestration(engine.db, id);
  return o && canOrchestration(o.status, records) && o.claim_token === token ? o : null;
}

const projectOf = (engine: Kernel, o: Orchestration) =>
  engine.db.selectFrom("projects").selectAll().where("id", "=", o.project_id).executeTakeFirstOrThrow();
const message = (err: unknown) => capText(err instanceof Error ? err.message : String(err), 2000);

/** PREPARING: the clone on its branch, then (in one transaction) the agent's conversation and item. */
export async function runPrepare(
  engine: Kernel,
  deps: OrchestrationDeps,
  id: string,
  token: string,
): Promise<StepResult> {
  const o = await claimed(engine, id, "prepared", token);
  if (!o) return LOST;
  const project = await projectOf(engine, o);
  const locale = engine.config.locale;
  const branch = o.branch ?? branchName(o.name, o.id);
  // `worktree_path` keeps its name (migrations are frozen once landed): it holds the clone's path.
  const worktree = o.worktree_path ?? clonePath(engine.config.dataDir, o.name, o.id);
  let base: { branch: string; revision: string };
  try {
    const head =
      o.base_branch && o.base_revision
        ? { branch: o.base_branch, revision: o.base_revision }
        : await deps.git.head(project.path);
    if (!head.branch) return failPrepare(engine, o, token, "orch_main_detached", project.path);
    base = { branch: head.branch, revision: head.revision };
    await deps.git.addClone(project.path, worktree, branch, base.revision);
  } catch (err) {
    return failPrepare(engine, o, token, "orch_git_failed", message(err));
  }
  // The project's setup, before its agent and its acceptance tests (cached per base, as lanes'):
  // a failed setup fails the preparation with its redacted tail; its clone goes, a retry remakes it.
  try {
    await prepareWorkspace(engine, project, worktree, base.revision);
  } catch (err) {
    if (!(err instanceof SetupFailed)) throw err;
    await deps.git.removeClone(project.path, worktree, branch).catch(() => undefined);
    return failPrepare(engine, o, token, "orch_setup_failed", err.tail);
  }
  // Global lock (PostgreSQL): creates the agent's conversation and queues its prompt after a claim check; once per orchestration.
  const recorded = await writeTransaction(engine.db, async (trx) => {
    const now = engine.clock.now();
    // Still ours? Checked before creating anything, so a lost claim leaves no stray conversation.
    const still = await trx
      .selectFrom("orchestrations")
      .select("id")
      .where("id", "=", o.id)
      .where("status", "in", statusesAllowing("prepared"))
      .where("claim_token", "=", token)
      .executeTakeFirst();
    if (!still) return false;
    const conversation = await createConversation(
      trx,
      engine.clock,
      project.id,
      t(locale, "orch.conversation_title", { name: o.name }),
      o.owner_id,
    );
    const item = await enqueueIn(
      trx,
      engine.clock,
      conversation.id,
      startPrompt(locale, { name: o.name, branch, draft: o.draft }),
      { origin: "orchestration", requestedBy: o.owner_id },
    );
    const moved = await transition(trx, now, o, "prepared", {
      claimToken: token,
      set: {
        base_branch: base.branch,
        base_revision: base.revision,
        branch,
        worktree_path: worktree,
        conversation_id: conversation.id,
        queue_id: item.id,
        last_error: null,
      },
      event: {
        kind: "agent.started",
        queueId: item.id,
        detail: { branch, worktree_path: worktree, base_revision: base.revision },
      },
    });
    if (!moved) throw new Error("claim checked in this transaction, yet the guarded move failed");
    return true;
  });
  if (!recorded) return LOST;
  return { ok: true, effects: { dispatch: true } };
}

async function failPrepare(
  engine: Kernel,
  o: Orchestration,
  token: string,
  reason: "orch_main_detached" | "orch_git_failed" | "orch_setup_failed",
  detail: string,
): Promise<StepResult> {
  const params = { path: detail, detail };
  const error = failureNote(`reason.${reason}`, params); // no language: views render it
  // Global lock (PostgreSQL): orchestration transitions stay serialised with each other (rare).
  const moved = await writeTransaction(engine.db, (trx) =>
    transition(trx, engine.clock.now(), o, "prepare_failed", {
      claimToken: token,
      set: { last_error: error },
      event: { kind: "prepare.failed", detail: { reason, detail } },
    }),
  );
  return moved ? { ok: false, reason, params } : LOST;
}

/**
 * VERIFYING: commit the clone's changes on its branch, bring that branch into the project (where
 * approval and merge find the exact revision), then run every acceptance test in the clone.
 */
export async function runVerify(
  engine: Kernel,
  deps: OrchestrationDeps,
  id: string,
  token: string,
): Promise<StepResult> {
  const o = await claimed(engine, id, "verified", token);
  if (!o?.worktree_path || !o.branch) return LOST;
  const tests = JSON.parse(o.tests) as string[][];
  let record: VerificationRecord | null = null;
  let error = "";
  try {
    // Commit first: the revision recorded is exactly the content the tests ran on. Fetched before
    // the tests run: what they may leave in the clone's `.git` never reaches the project.
    const project = await projectOf(engine, o);
    const revision = await deps.git.commitAll(
      project.path,
      o.worktree_path,
      t(engine.config.locale, "orch.commit_message", { name: o.name, id: o.id.slice(0, 8) }),
    );
    const fetched = await deps.git.fetchBranch(project.path, o.worktree_path, o.branch);
    if (fetched !== revision)
      throw new Error(
        `the branch ${o.branch} is at ${fetched} in ${project.path}, not at the committed ${revision}`,
      );
    // Each test runs jailed in the clone; git inside it may read the project's objects, nothing else.
    const results = await deps.runTests(o.worktree_path, tests, deps.testTimeoutMs, {
      jail: engine.config.jail,
      allowedAlternates: [path.join(project.path, ".git", "objects")],
    });
    record = { revision, passed: results.every((r) => r.passed), results };
    if (!record.passed) error = failureSummary(results);
  } catch (err) {
    error = message(err);
  }
  const passed = record?.passed === true;
  // Global lock (PostgreSQL): orchestration transitions stay serialised with each other (rare).
  const moved = await writeTransaction(engine.db, (trx) =>
    transition(trx, engine.clock.now(), o, passed ? "verified" : "verification_failed", {
      claimToken: token,
      set: {
        verification: record ? JSON.stringify(record) : null,
        verified_revision: passed ? record!.revision : null,
        last_error: passed ? null : capText(error, 8000),
      },
      event: {
        kind: passed ? "verification.passed" : "verification.failed",
        detail: { revision: record?.revision ?? null, ...(passed ? {} : { output: capText(error, 4000) }) },
      },
    }),
  );
  // A failed verification is a result like a pass: recorded, and shown by the status.
  return moved ? { ok: true } : LOST;
}

/** MERGING: the approved revision into the main checkout, then the clone and branch go. */
export async function runMerge(
  engine: Kernel,
  deps: OrchestrationDeps,
  id: string,
  token: string,
): Promise<StepResult> {
  const o = await claimed(engine, id, "merged", token);
  if (!o?.approved_revision || !o.base_branch) return LOST;
  const mainBranch = o.base_branch;
  const project = await projectOf(engine, o);
  const log = engine.logger.child({ orchestrationId: o.id });
  const result: MergeResult = await deps.git
    .merge(project.path, {
      branch: mainBranch,
      revision: o.approved_revision,
      message: t(engine.config.locale, "orch.merge_message", { name: o.name, id: o.id.slice(0, 8) }),
    })
    .catch((err: unknown) => ({ ok: false, reason: "conflict", detail: message(err) }) as const);
  let cleanup: string | null = null;
  if (result.ok && o.worktree_path) {
    // Merged is merged: a clone that will not go away is logged, never a reason to un-merge.
    await deps.git.removeClone(project.path, o.worktree_path, o.branch).catch((err: unknown) => {
      cleanup = message(err);
      log.warn({ err }, "clone cleanup after merge failed");
    });
  }
  // Global lock (PostgreSQL): orchestration transitions stay serialised with each other (rare).
  const moved = await writeTransaction(engine.db, (trx) =>
    transition(trx, engine.clock.now(), o, result.ok ? "merged" : "merge_failed", {
      claimToken: token,
      set: result.ok
        ? { merged_revision: result.revision, last_error: null }
        : {
            last_error: failureNote(`reason.${MERGE_REASONS[result.reason]}`, {
              branch: mainBranch,
              detail: result.detail,
            }),
          },
      event: result.ok
        ? { kind: "merged", detail: { revision: result.revision, how: result.how, cleanup_error: cleanup } }
        : { kind: "merge.failed", detail: { reason: result.reason, detail: result.detail } },
    }),
  );
  if (!moved) return LOST;
  return result.ok
    ? { ok: true }
    : {
        ok: false,
        reason: MERGE_REASONS[result.reason],
        params: { branch: mainBranch, detail: result.detail },
      };
}

/** CANCELLING: the agent is stopped, then the clone and the branch are removed. */
export async function runCancel(
  engine: Kernel,
  deps: OrchestrationDeps,
  id: string,
  token: string,
): Promise<StepResult> {
  const o = await claimed(engine, id, "cancelled", token);
  if (!o) return LOST;
  // The agent stops before its clone is removed: performed here, not left to the caller.
  if (o.conversation_id) await performEffects(engine, { stop: [o.conversation_id] });
  // A preparation that failed half-way recorded no path: the computed one is checked too.
  const clone = o.worktree_path ?? clonePath(engine.config.dataDir, o.name, o.id);
  if (o.worktree_path || fs.existsSync(clone)) {
    const project = await projectOf(engine, o);
    try {
      await deps.git.removeClone(project.path, clone, o.branch ?? branchName(o.name, o.id));
    } catch (err) {
      // Stays CANCELLING: when the claim expires, the tick tries the cleanup again.
      engine.logger.child({ orchestrationId: o.id }).warn({ err }, "clone cleanup failed");
      return { ok: false, reason: "orch_git_failed", params: { detail: message(err) } };
    }
  }
  // Global lock (PostgreSQL): orchestration transitions stay serialised with each other (rare).
  const moved = await writeTransaction(engine.db, (trx) =>
    transition(trx, engine.clock.now(), o, "cancelled", { claimToken: token, event: { kind: "cancelled" } }),
  );
  return moved ? { ok: true } : LOST;
}
