import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  approveDraft,
  approveRevision,
  createOrchestration,
  getOrchestration,
  mergeOrchestration,
  rejectDraft,
  requestCorrections,
  verifyOrchestration,
} from "../../../src/engine/orchestrations/index.js";
import { OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository, finishAgent, git, read } from "./repo.js";

type Env = Awaited<ReturnType<typeof disposableRepository>>;

const REQUEST = {
  name: "Refonte jetable",
  request: "Modifier le fichier de démonstration sans toucher au dépôt principal avant validation.",
  acceptance_criteria: ["Le contenu final vaut approved", "La vérification dédiée réussit"],
  tests: [APP_TEST],
  engine: "codex",
};

describe("orchestrations: the complete flow", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("S-OR-01: draft → refusal → approval → agent in a clone → verification → corrections → new revision → approval → confirmed merge", async () => {
    env = await disposableRepository();
    const { engine, root } = env;
    const mainHead = await git(root, "rev-parse", "HEAD");

    let flow = await createOrchestration(engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    expect(flow).toMatchObject({
      status: "DRAFT_REVIEW",
      draft_version: 1,
      engine: "codex",
      tests: [APP_TEST],
    });
    expect(flow.draft).toContain(REQUEST.request);
    expect(flow.draft).toContain("Le contenu final vaut approved");

    flow = await rejectDraft(
      engine,
      OWNER_ACTOR,
      flow.id,
      "Préciser la preuve attendue et conserver la branche dédiée.",
    );
    expect(flow.status).toBe("DRAFT_REVIEW");
    expect(flow.draft_version).toBe(2);
    expect(flow.draft).toContain("preuve attendue");

    flow = await approveDraft(engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    expect(flow.status).toBe("AGENT_RUNNING");
    expect(flow.worktree_path!.startsWith(path.join(env.config.dataDir, "clones", "orch"))).toBe(true);
    expect(flow.conversation_id).toBeTruthy();
    expect(flow.queue_id).toBeTruthy();
    // A dedicated branch, checked out in the clone; the agent's item runs in that conversation.
    expect(await git(flow.worktree_path!, "symbolic-ref", "--short", "HEAD")).toBe(flow.branch);
    const item = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", flow.queue_id!)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ conversation_id: flow.conversation_id, origin_kind: "orchestration" });
    expect(item.content).toContain("preuve attendue");

    const worktree = await finishAgent(env, flow, "draft\n");
    // The main checkout is untouched while the agent works.
    expect(read(path.join(root, "app.txt")).startsWith("draft")).toBe(false);
    expect(await git(root, "status", "--porcelain")).toBe("");

    const first = await getOrchestration(engine, OWNER_ACTOR, flow.id);
    const second = await getOrchestration(engine, OWNER_ACTOR, flow.id);
    await engine.tick();
    const third = await getOrchestration(engine, OWNER_ACTOR, flow.id);
    expect(first.status).toBe("AWAITING_VERIFICATION");
    expect(second.status).toBe("AWAITING_VERIFICATION");
    expect(third.events.filter((e) => e.kind === "agent.finished")).toHaveLength(1);

    flow = await verifyOrchestration(engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
    const firstRevision = flow.verified_revision!;
    expect(firstRevision).toMatch(/^[0-9a-f]{40}$/);
    // The verified revision is a commit on the dedicated branch holding the agent's work; main has not moved.
    expect(await git(worktree, "rev-parse", flow.branch!)).toBe(firstRevision);
    expect(await git(root, "rev-parse", flow.branch!)).toBe(firstRevision); // fetched back into the project
    expect(await git(root, "show", `${firstRevision}:app.txt`)).toBe("draft");
    expect(await git(root, "rev-parse", "HEAD")).toBe(mainHead);
    expect(flow.verification).toMatchObject({ revision: firstRevision, passed: true });

    flow = await requestCorrections(
      engine,
      OWNER_ACTOR,
      flow.id,
      "La recette refuse draft : remplacer par approved.",
    );
    expect(flow.status).toBe("AGENT_RUNNING");
    expect(flow.conversation_id).toBe(first.conversation_id);
    expect(flow.worktree_path).toBe(worktree);
    expect(flow.queue_id).not.toBe(first.queue_id);
    const correction = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", flow.queue_id!)
      .executeTakeFirstOrThrow();
    expect(correction.conversation_id).toBe(first.conversation_id);
    expect(correction.content).toContain("remplacer par approved");

    await finishAgent(env, flow, "approved\n");
    expect((await getOrchestration(engine, OWNER_ACTOR, flow.id)).status).toBe("AWAITING_VERIFICATION");
    flow = await verifyOrchestration(engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
    expect(flow.verified_revision).not.toBe(firstRevision);

    flow = await approveRevision(engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    expect(flow.status).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(read(path.join(root, "app.txt"))).toBe("base\n");

    await expect(mergeOrchestration(engine, OWNER_ACTOR, flow.id, { confirm: false })).rejects.toMatchObject({
      code: "conflict",
      reason: "orch_merge_unconfirmed",
    });
    expect((await getOrchestration(engine, OWNER_ACTOR, flow.id)).status).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(await git(root, "rev-parse", "HEAD")).toBe(mainHead);

    const merged = await mergeOrchestration(engine, OWNER_ACTOR, flow.id, { confirm: true });
    expect(merged.status).toBe("MERGED");
    expect(read(path.join(root, "app.txt"))).toBe("approved\n");
    expect(await git(root, "rev-parse", "HEAD")).toBe(merged.merged_revision);
    expect(
      await git(root, "merge-base", "--is-ancestor", flow.verified_revision!, "HEAD").then(() => true),
    ).toBe(true);
    // The clone and its branch are gone; the main checkout is clean.
    expect(fs.existsSync(worktree)).toBe(false);
    expect(await git(root, "branch", "--list", flow.branch!)).toBe("");
    expect(await git(root, "status", "--porcelain")).toBe("");
    expect(merged.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        "created",
        "draft.rejected",
        "draft.approved",
        "agent.started",
        "agent.finished",
        "verification.passed",
        "corrections.requested",
        "revision.approved",
        "merge.confirmed",
        "merged",
      ]),
    );
    // Every change of status was announced in the outbox.
    const events = await env.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "orchestration.updated")
      .execute();
    expect(events.map((e) => (JSON.parse(e.payload) as { status: string }).status)).toContain("MERGED");
  });

  it("a project without merge confirmation merges as soon as the verified revision is approved", async () => {
    env = await disposableRepository({ mergeConfirmation: false });
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    flow = await approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    expect(flow.status).toBe("MERGED");
    expect(read(path.join(env.root, "app.txt"))).toBe("approved\n");
  });

  it("a main branch that moved on gets a merge commit holding both its work and the approved content", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project: "Disposable", ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    fs.writeFileSync(path.join(env.root, "other.txt"), "meanwhile\n");
    await git(env.root, "add", "other.txt");
    await git(env.root, "commit", "-q", "-m", "Meanwhile on main");
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    flow = await approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    flow = await mergeOrchestration(env.engine, OWNER_ACTOR, flow.id, { confirm: true });
    expect(flow.status).toBe("MERGED");
    expect(read(path.join(env.root, "app.txt"))).toBe("approved\n");
    expect(read(path.join(env.root, "other.txt"))).toBe("meanwhile\n");
    expect(
      await git(env.root, "rev-list", "--parents", "-n", "1", "HEAD").then((l) => l.split(" ").length),
    ).toBe(3);
  });

  it("the merge is refused while the main checkout has uncommitted changes, and succeeds once it is clean", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    flow = await approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    fs.writeFileSync(path.join(env.root, "app.txt"), "local edit\n");
    await expect(
      mergeOrchestration(env.engine, OWNER_ACTOR, flow.id, { confirm: true }),
    ).rejects.toMatchObject({ code: "conflict", reason: "orch_main_dirty" });
    const refused = await getOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(refused.status).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(refused.last_error).toContain("app.txt");
    expect(read(path.join(env.root, "app.txt"))).toBe("local edit\n");
    await git(env.root, "checkout", "--", "app.txt");
    flow = await mergeOrchestration(env.engine, OWNER_ACTOR, flow.id, { confirm: true });
    expect(flow.status).toBe("MERGED");
    expect(read(path.join(env.root, "app.txt"))).toBe("approved\n");
  });

  it("approving a revision other than the last verified one is refused", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "draft\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    await expect(approveRevision(env.engine, OWNER_ACTOR, flow.id, "0".repeat(40))).rejects.toMatchObject({
      code: "conflict",
      reason: "orch_stale_revision",
    });
    expect((await getOrchestration(env.engine, OWNER_ACTOR, flow.id)).status).toBe("USER_REVIEW");
  });
});
