import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  approveDraft,
  approveRevision,
  cancelOrchestration,
  createOrchestration,
  getOrchestration,
  listOrchestrations,
  rejectDraft,
  requestCorrections,
  verifyOrchestration,
} from "../../../src/engine/orchestrations/index.js";
import { defaultDeps } from "../../../src/engine/orchestrations/effects.js";
import { OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository, finishAgent, git, read } from "./repo.js";

type Env = Awaited<ReturnType<typeof disposableRepository>>;

const OTHER = { userId: "UOTHER", isAdmin: false };
const ADMIN = { userId: "UADMIN", isAdmin: true };
const REQUEST = {
  name: "Refonte jetable",
  request: "Modifier le fichier de démonstration.",
  acceptance_criteria: ["Le contenu final vaut approved"],
  tests: [APP_TEST],
  engine: "codex",
};

async function running(env: Env, tests: string[][] = [APP_TEST]) {
  const flow = await createOrchestration(env.engine, OWNER_ACTOR, {
    project_id: env.projectId,
    ...REQUEST,
    tests,
  });
  return approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
}

describe("orchestrations: access and guards", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("S-OR-02: a user who does not own the project cannot start an orchestration in it: not found, as if it did not exist", async () => {
    env = await disposableRepository();
    const input = {
      project_id: env.projectId,
      name: "Interdit",
      request: "Cette demande ne doit jamais démarrer dans le projet privé.",
      acceptance_criteria: ["Refus"],
      tests: [],
    };
    const refused = await createOrchestration(env.engine, OTHER, input).catch((e: unknown) => e);
    const absent = await createOrchestration(env.engine, OTHER, {
      ...input,
      project_id: "no-such-project",
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "not_found", reason: "project_not_found" });
    expect(absent).toMatchObject({ code: "not_found", reason: "project_not_found" });
    expect(await env.db.selectFrom("orchestrations").select("id").execute()).toEqual([]);
  });

  it("only the project's owner and admins see or act on an orchestration; others get not found", async () => {
    env = await disposableRepository();
    const flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      ...REQUEST,
    });
    // One at a time: a refusal started early would reject before anything awaits it.
    for (const attempt of [
      () => getOrchestration(env.engine, OTHER, flow.id),
      () => rejectDraft(env.engine, OTHER, flow.id, "non"),
      () => approveDraft(env.engine, OTHER, flow.id, flow.draft_hash),
      () => cancelOrchestration(env.engine, OTHER, flow.id),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "not_found", reason: "orch_not_found" });
    }
    await expect(getOrchestration(env.engine, OTHER, "no-such-id")).rejects.toMatchObject({
      code: "not_found",
      reason: "orch_not_found",
    });
    expect(await listOrchestrations(env.engine, OTHER)).toEqual([]);
    expect((await listOrchestrations(env.engine, OWNER_ACTOR)).map((o) => o.id)).toEqual([flow.id]);
    expect((await getOrchestration(env.engine, ADMIN, flow.id)).status).toBe("DRAFT_REVIEW");
  });

  it("tests must be argv lists, and the project a git repository", async () => {
    env = await disposableRepository();
    await expect(
      createOrchestration(env.engine, OWNER_ACTOR, {
        project_id: env.projectId,
        ...REQUEST,
        tests: ["python3 -c 'print(1)'"],
      }),
    ).rejects.toMatchObject({ code: "invalid", reason: "orch_invalid", params: { fields: "tests" } });
    await expect(
      createOrchestration(env.engine, OWNER_ACTOR, {
        project_id: env.projectId,
        ...REQUEST,
        engine: "other",
      }),
    ).rejects.toMatchObject({ code: "invalid", reason: "orch_invalid" });
    await expect(
      createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.project.id, ...REQUEST }),
    ).rejects.toMatchObject({ code: "invalid", reason: "orch_not_a_repository" });
  });

  it("a stale draft hash is refused: only the version the person read can be approved", async () => {
    env = await disposableRepository();
    const v1 = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    const v2 = await rejectDraft(env.engine, OWNER_ACTOR, v1.id, "Ajouter une preuve.");
    expect(v2.draft_hash).not.toBe(v1.draft_hash);
    await expect(approveDraft(env.engine, OWNER_ACTOR, v1.id, v1.draft_hash)).rejects.toMatchObject({
      code: "conflict",
      reason: "orch_stale_draft",
    });
    const after = await getOrchestration(env.engine, OWNER_ACTOR, v1.id);
    expect(after).toMatchObject({
      status: "DRAFT_REVIEW",
      draft_version: 2,
      worktree_path: null,
      conversation_id: null,
    });
    expect(fs.existsSync(path.join(env.config.dataDir, "clones"))).toBe(false);
    // Approving twice: the second click finds nothing to approve.
    await approveDraft(env.engine, OWNER_ACTOR, v1.id, v2.draft_hash);
    await expect(approveDraft(env.engine, OWNER_ACTOR, v1.id, v2.draft_hash)).rejects.toMatchObject({
      code: "conflict",
      reason: "orch_wrong_state",
    });
  });

  it("a failing verification records the output and lets the person ask for corrections, which quote it to the agent", async () => {
    env = await disposableRepository();
    let flow = await running(env);
    await finishAgent(env, flow, "wrong\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("VERIFICATION_FAILED");
    expect(flow.verified_revision).toBeNull();
    expect(flow.verification).toMatchObject({
      passed: false,
      results: [{ passed: false, exitCode: 1, timedOut: false }],
    });
    expect(flow.last_error).toContain("exit 1");
    expect(flow.events.filter((e) => e.kind === "verification.failed")).toHaveLength(1);
    await expect(
      approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verification!.revision),
    ).rejects.toMatchObject({ code: "conflict", reason: "orch_wrong_state" });

    flow = await requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Le test échoue : écrire approved.");
    const item = await env.db
      .selectFrom("prompt_queue")
      .select("content")
      .where("id", "=", flow.queue_id!)
      .executeTakeFirstOrThrow();
    expect(item.content).toContain("écrire approved");
    expect(item.content).toContain("exit 1");
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
  });

  it("tests run without a shell and within their time limit", async () => {
    env = await disposableRepository();
    const noShell = [
      process.execPath,
      "-e",
      "process.exit(process.argv[1] === '$(touch pwned)' ? 0 : 1)",
      "$(touch pwned)",
    ];
    const forever = [process.execPath, "-e", "setTimeout(() => {}, 60000)"];
    let flow = await running(env, [noShell, forever]);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id, {
      ...defaultDeps(env.config),
      testTimeoutMs: 500,
    });
    expect(flow.status).toBe("VERIFICATION_FAILED");
    expect(flow.verification!.results.map((r) => [r.passed, r.timedOut])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(fs.existsSync(path.join(flow.worktree_path!, "pwned"))).toBe(false);
  });

  it("a failed agent item lets the person ask for corrections in the same conversation", async () => {
    env = await disposableRepository();
    let flow = await running(env);
    await env.db
      .updateTable("prompt_queue")
      .set({
        status: "failed",
        error: "codex a échoué",
        error_code: "codex_failed",
        finished_at: env.clock.now(),
      })
      .where("id", "=", flow.queue_id!)
      .execute();
    await env.engine.tick();
    flow = await getOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow).toMatchObject({ status: "AGENT_FAILED", last_error: "codex a échoué" });
    const again = await requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Réessaie.");
    expect(again).toMatchObject({ status: "AGENT_RUNNING", conversation_id: flow.conversation_id });
  });

  it("cancel stops the agent and removes the clone and its branch; the main checkout is untouched", async () => {
    env = await disposableRepository();
    const head = await git(env.root, "rev-parse", "HEAD");
    const flow = await running(env);
    expect(fs.existsSync(flow.worktree_path!)).toBe(true);
    fs.writeFileSync(path.join(flow.worktree_path!, "app.txt"), "half done\n");
    const cancelled = await cancelOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(cancelled.status).toBe("CANCELLED");
    expect(fs.existsSync(flow.worktree_path!)).toBe(false);
    expect(await git(env.root, "branch", "--list", flow.branch!)).toBe("");
    expect(fs.existsSync(`${flow.worktree_path!}.seal`)).toBe(false);
    expect(await git(env.root, "rev-parse", "HEAD")).toBe(head);
    expect(read(path.join(env.root, "app.txt"))).toBe("base\n");
    const item = await env.db
      .selectFrom("prompt_queue")
      .select(["status", "cancel_requested_at"])
      .where("id", "=", flow.queue_id!)
      .executeTakeFirstOrThrow();
    expect(item.status === "cancelled" || item.cancel_requested_at !== null).toBe(true);
    await expect(cancelOrchestration(env.engine, OWNER_ACTOR, flow.id)).rejects.toMatchObject({
      code: "conflict",
      reason: "orch_wrong_state",
    });
  });

  it("cancel from the draft needs no git at all", async () => {
    env = await disposableRepository();
    const flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      ...REQUEST,
    });
    expect((await cancelOrchestration(env.engine, OWNER_ACTOR, flow.id)).status).toBe("CANCELLED");
  });
});
