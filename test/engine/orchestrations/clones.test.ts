import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  approveDraft,
  approveRevision,
  cancelOrchestration,
  createOrchestration,
  getOrchestration,
  mergeOrchestration,
  requestCorrections,
  verifyOrchestration,
} from "../../../src/engine/orchestrations/index.js";
import { agentWorkdir } from "../../../src/engine/orchestrations/workdir.js";
import { codexEngine, finished } from "../../support/codexEngine.js";
import { OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository, finishAgent, git, isolateGit, read } from "./repo.js";

const REQUEST = {
  name: "Clone",
  request: "Écrire approved dans app.txt.",
  acceptance_criteria: ["approved"],
  tests: [APP_TEST],
};

/** What a person's checkout shows: its branch, main's revision, its files' state. */
async function mainCheckout(root: string) {
  return {
    head: await git(root, "symbolic-ref", "HEAD"),
    main: await git(root, "rev-parse", "refs/heads/main"),
    status: await git(root, "status", "--porcelain", "--untracked-files=all"),
    app: read(path.join(root, "app.txt")),
  };
}

/** The refs of a repository other than `except`, one "name revision" per line. */
const refsBut = async (root: string, except: string) =>
  (await git(root, "for-each-ref", "--format=%(refname) %(objectname)"))
    .split("\n")
    .filter((l) => l && !l.startsWith(`refs/heads/${except} `));

describe("orchestrations work in clones", () => {
  let env: Awaited<ReturnType<typeof disposableRepository>> | undefined;
  let real: Awaited<ReturnType<typeof codexEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    await real?.close();
    env = real = undefined;
  });

  it("with the real Codex, the agent's working directory is its clone, and the main checkout, its HEAD and main stay as they were until the confirmed merge", async () => {
    isolateGit();
    real = await codexEngine();
    const root = real.project.path;
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    await real.db
      .updateTable("projects")
      .set({ merge_confirmation_required: 1 })
      .where("id", "=", real.project.id)
      .execute();
    const before = await mainCheckout(root);
    const refsBefore = await refsBut(root, "none");

    // The agent records where it runs and whether git works there, then writes its change.
    const script =
      "pwd -P > cwd.txt; git rev-parse --absolute-git-dir > gitdir.txt; printf 'approved\\n' > app.txt";
    real.fake.enqueue(
      { kind: "shell", command: ["sh", "-c", script] },
      { kind: "text", text: "J’ai écrit approved." },
    );
    let flow = await createOrchestration(real.engine, OWNER_ACTOR, {
      project_id: real.project.id,
      ...REQUEST,
    });
    flow = await approveDraft(real.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    const clone = flow.worktree_path!;
    expect(await finished(real.db, flow.queue_id!, 60_000)).toMatchObject({ status: "done" });
    expect((await getOrchestration(real.engine, OWNER_ACTOR, flow.id)).status).toBe("AWAITING_VERIFICATION");

    expect(read(path.join(clone, "cwd.txt")).trim()).toBe(fs.realpathSync(clone));
    expect(read(path.join(clone, "gitdir.txt")).trim()).toBe(path.join(fs.realpathSync(clone), ".git")); // git works in the clone, on its own .git
    expect(read(path.join(clone, "app.txt"))).toBe("approved\n");
    expect(await mainCheckout(root)).toEqual(before);
    expect(await refsBut(root, "none")).toEqual(refsBefore);

    flow = await verifyOrchestration(real.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
    // Only the orchestration's own branch appeared in the project, at the verified revision.
    expect(await git(root, "rev-parse", `refs/heads/${flow.branch!}`)).toBe(flow.verified_revision);
    expect(await refsBut(root, flow.branch!)).toEqual(refsBefore);
    expect(await mainCheckout(root)).toEqual(before);

    flow = await approveRevision(real.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    expect(flow.status).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(await mainCheckout(root)).toEqual(before);

    flow = await mergeOrchestration(real.engine, OWNER_ACTOR, flow.id, { confirm: true });
    expect(flow.status).toBe("MERGED");
    expect(await git(root, "rev-parse", "refs/heads/main")).toBe(flow.merged_revision);
    expect(read(path.join(root, "app.txt"))).toBe("approved\n");
    expect(fs.existsSync(clone)).toBe(false);
  });

  it("the clone is a repository of its own that reads the project's objects through alternates, never a worktree of the main checkout", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    const gitDir = path.join(flow.worktree_path!, ".git");
    expect(fs.lstatSync(gitDir).isDirectory()).toBe(true);
    expect(read(path.join(gitDir, "objects", "info", "alternates")).trim()).toBe(
      path.join(env.root, ".git", "objects"),
    );
    expect(await git(env.root, "worktree", "list", "--porcelain")).not.toContain(flow.worktree_path!);
    expect(fs.existsSync(path.join(env.root, ".git", "worktrees"))).toBe(false);
    // No object was copied or hardlinked: the clone's object store is empty until it commits.
    expect(await git(flow.worktree_path!, "count-objects", "-v")).toMatch(/^count: 0$/m);
  });

  it("a clone whose git configuration a test command changed is refused at the next verification and for the next agent turn: its filter never runs, nothing is committed or fetched", async () => {
    env = await disposableRepository();
    const marker = path.join(env.dir, "filter-ran");
    const tamper = [
      process.execPath,
      "-e",
      `const fs=require('fs'); fs.appendFileSync('.git/config', '[filter "x"]\\n\\tclean = touch ${marker}\\n'); fs.writeFileSync('.gitattributes', '* filter=x\\n')`,
    ];
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      ...REQUEST,
      tests: [APP_TEST, tamper],
    });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW"); // control: the tests passed, and one of them tampered
    const verified = flow.verified_revision!;
    expect(read(path.join(flow.worktree_path!, ".git", "config"))).toContain('[filter "x"]');

    flow = await requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Encore.");
    await finishAgent(env, flow, "draft\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("VERIFICATION_FAILED");
    expect(flow.last_error).toContain("changed since codexpi made it");
    expect(fs.existsSync(marker)).toBe(false);
    expect(await git(env.root, "rev-parse", `refs/heads/${flow.branch!}`)).toBe(verified);
    expect(await git(flow.worktree_path!, "rev-parse", "HEAD")).toBe(verified);
    // Nor does an agent run there again: its alternates and configuration are no longer codexpi's.
    expect(
      await agentWorkdir(env.engine, flow.conversation_id!, { path: env.root, role: "project" }),
    ).toBeNull();
    // Control: the planted filter was armed — a plain `git add` there runs it.
    await git(flow.worktree_path!, "add", "-A");
    expect(fs.existsSync(marker)).toBe(true);
  });

  it("a FIFO a test command leaves in place of the clone's git configuration or alternates is refused at once, never opened for reading (which would hang codexpi)", async () => {
    env = await disposableRepository();
    // The FIFO is made by a test command (jailed, in the clone): mkfifo replaces the file.
    const tamper = [
      "/bin/sh",
      "-c",
      "rm .git/objects/info/alternates && mkfifo .git/objects/info/alternates",
    ];
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      ...REQUEST,
      tests: [APP_TEST, tamper],
    });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW"); // control: the tests passed, and one of them left the FIFO
    expect(
      fs.lstatSync(path.join(flow.worktree_path!, ".git", "objects", "info", "alternates")).isFIFO(),
    ).toBe(true);
    flow = await requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Encore.");
    await finishAgent(env, flow, "draft\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("VERIFICATION_FAILED");
    expect(flow.last_error).toContain("changed since codexpi made it");
  });

  it("an orchestration an earlier version started in a git worktree finishes there after the upgrade: verified, merged, its worktree removed", async () => {
    env = await disposableRepository({ mergeConfirmation: false });
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    // What the earlier version left: a worktree under <data dir>/worktrees on the branch, recorded.
    fs.rmSync(flow.worktree_path!, { recursive: true, force: true });
    fs.rmSync(`${flow.worktree_path!}.seal`, { force: true });
    const worktree = path.join(env.config.dataDir, "worktrees", "legacy");
    await git(env.root, "worktree", "add", "-q", "-b", flow.branch!, worktree, "HEAD");
    await env.db
      .updateTable("orchestrations")
      .set({ worktree_path: worktree })
      .where("id", "=", flow.id)
      .execute();
    expect(await agentWorkdir(env.engine, flow.conversation_id!, { path: env.root, role: "project" })).toBe(
      worktree,
    );
    await finishAgent(env, { ...flow, worktree_path: worktree }, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("USER_REVIEW");
    flow = await approveRevision(env.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
    expect(flow.status).toBe("MERGED");
    expect(read(path.join(env.root, "app.txt"))).toBe("approved\n");
    expect(fs.existsSync(worktree)).toBe(false);
    expect(await git(env.root, "worktree", "list")).not.toContain(worktree);
  });

  it("cancelling after a verification removes the clone, its seal and the branch fetched into the project", async () => {
    env = await disposableRepository();
    let flow = await createOrchestration(env.engine, OWNER_ACTOR, { project_id: env.projectId, ...REQUEST });
    flow = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    await finishAgent(env, flow, "approved\n");
    flow = await verifyOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(await git(env.root, "branch", "--list", flow.branch!)).toContain(flow.branch!); // control
    flow = await cancelOrchestration(env.engine, OWNER_ACTOR, flow.id);
    expect(flow.status).toBe("CANCELLED");
    expect(fs.existsSync(flow.worktree_path!)).toBe(false);
    expect(fs.existsSync(`${flow.worktree_path!}.seal`)).toBe(false);
    expect(await git(env.root, "branch", "--list", flow.branch!)).toBe("");
    expect(read(path.join(env.root, "app.txt"))).toBe("base\n");
  });
});
