import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWorker } from "../../../src/engine/worker/worker.js";
import {
  approveDraft,
  approveRevision,
  createOrchestration,
  getOrchestration,
  processOrchestrations,
  verifyOrchestration,
} from "../../../src/engine/orchestrations/index.js";
import { defaultDeps, GIT_CLAIM_MS } from "../../../src/engine/orchestrations/effects.js";
import { branchName, clonePath } from "../../../src/engine/orchestrations/draft.js";
import { makeClone } from "../../../src/engine/workspaces/clones.js";
import { agentWorkdir } from "../../../src/engine/orchestrations/workdir.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository, finishAgent, git, read } from "./repo.js";

type Env = Awaited<ReturnType<typeof disposableRepository>>;

const REQUEST = {
  name: "Reprise",
  request: "Écrire approved dans app.txt.",
  acceptance_criteria: ["approved"],
  tests: [APP_TEST],
};

/** An orchestration waiting for the merge confirmation, its approved revision holding "approved". */
async function awaitingMerge(env: Env) {
  let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
  flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
  await finishAgent(env, flow, "approved\n");
  flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
  return approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
}

/** What a process that died right after claiming a step leaves behind. */
const diedHolding = (env: Env, id: string, status: "PREPARING" | "VERIFYING" | "MERGING" | "CANCELLING") =>
  env.db
    .updateTable("orchestrations")
    .set({ status, claim_token: "dead-process", claim_expires_at: env.clock.now() + GIT_CLAIM_MS })
    .where("id", "=", id)
    .execute();

describe("orchestrations: crash recovery", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("a merge claimed by a process that died is carried out by the tick once the claim expires", async () => {
    env = await disposableRepository();
    const flow = await awaitingMerge(env);
    await diedHolding(env, flow.id, "MERGING");
    await env.engine.tick();
    expect((await getOrchestration(env.engine, OWNER_ACTOR, flow.id)).status).toBe("MERGING"); // the claim still holds
    env.clock.advance(GIT_CLAIM_MS + 1);
    expect(await env.engine.tick()).toMatchObject({ orchestrations_recovered: 1 });
    const merged = await getOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(merged.status).toBe("MERGED");
    expect(read(path.join(env.root, "app.txt"))).toBe("approved\n");
    expect(fs.existsSync(flow.worktree_path!)).toBe(false);
  });

  it("a merge done in git but not recorded (crash in between) is recognised, not merged twice", async () => {
    env = await disposableRepository();
    const flow = await awaitingMerge(env);
    await git(env.root, "merge", "--ff-only", "-q", flow.approved_revision!);
    const head = await git(env.root, "rev-parse", "HEAD");
    await diedHolding(env, flow.id, "MERGING");
    env.clock.advance(GIT_CLAIM_MS + 1);
    await processOrchestrations(env.engine);
    const merged = await getOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(merged).toMatchObject({ status: "MERGED", merged_revision: head });
    expect(merged.events.find((e) => e.kind === "merged")?.detail).toMatchObject({ how: "already-merged" });
    expect(await git(env.root, "rev-parse", "HEAD")).toBe(head);
  });

  it("a clone made by a process that died before recording is reused by the tick, with one conversation", async () => {
    env = await disposableRepository();
    const flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      ...REQUEST,
    });
    const worktree = clonePath(env.config.dataDir, flow.name, flow.id);
    await makeClone(
      env.config.jail,
      env.root,
      worktree,
      branchName(flow.name, flow.id),
      await git(env.root, "rev-parse", "HEAD"),
    );
    fs.writeFileSync(path.join(worktree, "app.txt"), "work of the first attempt\n");
    await diedHolding(env, flow.id, "PREPARING");
    env.clock.advance(GIT_CLAIM_MS + 1);
    await processOrchestrations(env.engine);
    const running = await getOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(running).toMatchObject({
      status: "AGENT_RUNNING",
      worktree_path: worktree,
      branch: branchName(flow.name, flow.id),
    });
    const conversations = await env.db
      .selectFrom("conversations")
      .select("id")
      .where("project_id", "=", env.projectId)
      .execute();
    expect(conversations.map((c) => c.id)).toEqual([running.conversation_id]);
    expect(read(path.join(worktree, "app.txt"))).toBe("work of the first attempt\n");
  });

  it("an interrupted verification goes back to AWAITING_VERIFICATION, and a late result of the lost claim records nothing", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    // While the tests run, their claim expires and the tick takes the step back.
    const deps = defaultDeps(env.config);
    const slow = {
      ...deps,
      runTests: async (...args: Parameters<typeof deps.runTests>) => {
        const results = await deps.runTests(...args);
        env.clock.advance(deps.testTimeoutMs + GIT_CLAIM_MS + 1);
        await processOrchestrations(env.engine);
        return results;
      },
    };
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id, slow);
    expect(flow.status).toBe("AWAITING_VERIFICATION");
    expect(flow.verified_revision).toBeNull();
    expect(flow.events.map((e) => e.kind)).toContain("verification.interrupted");
    expect(flow.events.map((e) => e.kind)).not.toContain("verification.passed");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
  });
});

describe("the worker's working directory", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("an orchestration's agent works in its clone, any other in its project; a missing clone fails the item instead of using the main checkout", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    const repoProject = { path: env.root, role: "project" as const };
    expect(await agentWorkdir(env.engine, flow.conversation_id!, repoProject)).toBe(flow.worktree_path);
    const plain = await startConversation(env.db, env.clock, env.project, "bonjour", "UOWNER");
    expect(await agentWorkdir(env.engine, plain.conversation.id, env.project)).toBe(env.project.path);

    fs.rmSync(flow.worktree_path!, { recursive: true, force: true });
    expect(await agentWorkdir(env.engine, flow.conversation_id!, repoProject)).toBeNull();
    const item = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", flow.queue_id!)
      .executeTakeFirstOrThrow();
    expect(item.status).toBe("running");
    await env.db.updateTable("prompt_queue").set({ worker_pid: null }).where("id", "=", item.id).execute();
    expect(await runWorker(env.engine, item.id, item.attempt)).toBe("failed");
    const failed = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: "failed", error_code: "spawn_failed" });
    expect(read(path.join(env.root, "app.txt"))).toBe("base\n");
    expect((await getOrchestration(env.engine, OWNER_ACTOR, flow.id)).status).toBe("AGENT_FAILED");
  });
});
