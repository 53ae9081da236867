import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { pruneClones, selfCloneBranch, selfClonePath } from "../../../src/engine/workspaces/selfClones.js";
import { runWorker } from "../../../src/engine/worker/worker.js";
import { listIncidents } from "../../../src/engine/coordination/incidents.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { agentWorkdir } from "../../../src/engine/orchestrations/workdir.js";
import { startRun } from "../../../src/engine/runs/index.js";
import type { Project } from "../../../src/engine/schema.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { git, isolateGit, read } from "../orchestrations/repo.js";
import { APPROVE_PLAN, planStep, runEnv, type RunEnv } from "../runs/runEnv.js";
import { failureText } from "../../../src/i18n/failures.js";

const MAIN_JS = "console.log('codexpi');\n";

/** Makes `dir` a checkout of codexpi's source: main, one commit holding dist/src/main.js. */
async function sourceCheckout(dir: string): Promise<void> {
  isolateGit();
  await git(dir, "init", "-q", "-b", "main");
  fs.mkdirSync(path.join(dir, "dist", "src"), { recursive: true });
  fs.writeFileSync(path.join(dir, "dist", "src", "main.js"), MAIN_JS);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "Base");
}

/** What the self checkout shows: HEAD, every ref, its files' state and the code. */
async function checkout(dir: string) {
  return {
    head: await git(dir, "rev-parse", "HEAD"),
    refs: await git(dir, "for-each-ref", "--format=%(refname) %(objectname)"),
    status: await git(dir, "status", "--porcelain", "--untracked-files=all"),
    code: read(path.join(dir, "dist", "src", "main.js")),
  };
}

const selfOf = (env: { db: Awaited<ReturnType<typeof coordinationEnv>>["db"] }) =>
  env.db.selectFrom("projects").selectAll().where("role", "=", "self").executeTakeFirstOrThrow();

describe("the self project's agents work in clones", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>> | undefined;
  let runs: RunEnv | undefined;
  afterEach(async () => {
    await env?.close();
    await runs?.close();
    env = runs = undefined;
  });

  it("a conversation of the self project works in its own clone of the project's HEAD, on its own branch, which later turns reuse", async () => {
    env = await coordinationEnv();
    const self = await selfOf(env);
    await sourceCheckout(self.path);
    const { conversation } = await startConversation(env.db, env.clock, self, "répare", null, {
      origin: "repair",
    });
    const dir = await agentWorkdir(env.engine, conversation.id, self);
    expect(dir).toBe(selfClonePath(env.config.dataDir, conversation.id));
    expect(await git(dir!, "symbolic-ref", "--short", "HEAD")).toBe(selfCloneBranch(conversation.id));
    expect(await git(dir!, "rev-parse", "HEAD")).toBe(await git(self.path, "rev-parse", "HEAD"));

    fs.appendFileSync(path.join(dir!, "dist", "src", "main.js"), "// first turn\n");
    fs.writeFileSync(path.join(self.path, "later.txt"), "x");
    await git(self.path, "add", "later.txt");
    await git(self.path, "commit", "-q", "-m", "Later");
    // The next turn finds its work where it left it (the clone is not made again).
    expect(await agentWorkdir(env.engine, conversation.id, self)).toBe(dir);
    expect(read(path.join(dir!, "dist", "src", "main.js"))).toContain("// first turn");
    // Another conversation starts from what the self project holds now.
    const other = await startConversation(env.db, env.clock, self, "autre", null, { origin: "repair" });
    const otherDir = await agentWorkdir(env.engine, other.conversation.id, self);
    expect(await git(otherDir!, "rev-parse", "HEAD")).toBe(await git(self.path, "rev-parse", "HEAD"));
    expect(read(path.join(self.path, "dist", "src", "main.js"))).toBe(MAIN_JS);
  });

  it("an incident's repair is committed on its branch in the clone, and the resolution names the branch, the clone and how to fetch it; the self checkout does not change", async () => {
    env = await coordinationEnv();
    const self = await selfOf(env);
    await sourceCheckout(self.path);
    const before = await checkout(self.path);
    const failed = await startConversation(env.db, env.clock, env.source, "Exécute", OWNER);
    await writeTransaction(env.db, (trx) =>
      env!.engine.hook(trx, failed.conversation.id, failed.item.id, "failed", null, "boom"),
    );
    await env.engine.tick();
    const [repairing] = await listIncidents(env.db, OWNER_ACTOR);
    const conversationId = repairing!.repair_conversation_id!;
    const item = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();

    // The agent's turn, as the worker runs it: in its clone.
    const clone = (await agentWorkdir(env.engine, conversationId, self))!;
    fs.appendFileSync(path.join(clone, "dist", "src", "main.js"), "// repaired\n");
    await completedOutput(
      env.db,
      conversationId,
      item.id,
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"garde-fou ajouté","prompt_addendum":""}',
    );
    await env.engine.tick();

    const branch = selfCloneBranch(conversationId);
    const [resolved] = await listIncidents(env.db, OWNER_ACTOR, { all: true });
    expect(resolved!.status).toBe("RESOLVED");
    expect(resolved!.resolution).toContain("garde-fou ajouté");
    expect(resolved!.resolution).toContain(`git fetch ${clone} ${branch}`);
    expect(resolved!.resolution).toMatch(/Rien n’est fusionné ni déployé/);
    expect(await git(clone, "show", `${branch}:dist/src/main.js`)).toContain("// repaired");
    expect(await git(clone, "status", "--porcelain")).toBe("");
    expect(await checkout(self.path)).toEqual(before);

    // What the report says to do works: a person's review checkout fetches the branch.
    const review = path.join(env.dir, "review");
    await git(env.dir, "clone", "-q", self.path, review);
    await git(review, "fetch", "-q", clone, branch);
    expect(await git(review, "show", "FETCH_HEAD:dist/src/main.js")).toContain("// repaired");
  });

  it("a run's self-repair reports its branch and clone in the feedback people read", async () => {
    runs = await runEnv();
    await runs.addSelf();
    const self = await selfOf(runs);
    await sourceCheckout(self.path);
    const run = await startRun(runs.engine, OWNER_ACTOR, [planStep()]);
    await runs.finishActive(run.id, APPROVE_PLAN);
    await runs.tick();
    await runs.finishActive(run.id, "Fait.");
    await runs.tick();
    await runs.finishActive(
      run.id,
      'CODEXPI_SUPERVISION {"decision":"block","feedback":"Contrat à corriger"}',
    );
    await runs.tick();
    const repair = (await runs.run(run.id)).self_repair!;
    const clone = (await agentWorkdir(runs.engine, repair.conversation_id, self))!;
    fs.appendFileSync(path.join(clone, "dist", "src", "main.js"), "// contract fixed\n");
    await runs.finishQueue(
      repair.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"needs_user","feedback":"Le propriétaire doit relire.","prompt_addendum":""}',
    );
    expect((await runs.tick()).state).toBe("self_repair_processed");
    const settled = (await runs.run(run.id)).self_repair!;
    expect(settled.status).toBe("NEEDS_USER");
    expect(settled.feedback).toContain("Le propriétaire doit relire.");
    expect(settled.feedback).toContain(`git fetch ${clone} ${selfCloneBranch(repair.conversation_id)}`);
    expect(await git(clone, "show", `${selfCloneBranch(repair.conversation_id)}:dist/src/main.js`)).toContain(
      "// contract fixed",
    );
    expect(read(path.join(self.path, "dist", "src", "main.js"))).toBe(MAIN_JS);
  });

  it("an item of the self project whose clone cannot be made fails clearly, and nothing runs in the self project", async () => {
    env = await coordinationEnv();
    const self: Project = await selfOf(env); // not a git repository: no clone can be made
    const { item } = await startConversation(env.db, env.clock, self, "répare", null, { origin: "repair" });
    await env.engine.dispatch();
    const running = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(running.status).toBe("running");
    await env.db.updateTable("prompt_queue").set({ worker_pid: null }).where("id", "=", item.id).execute();
    expect(await runWorker(env.engine, item.id, running.attempt)).toBe("failed");
    const failed = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: "failed", error_code: "spawn_failed", codex_pid: null });
    expect(failureText("fr", failed.error)).toContain("clone"); // what a person reads; the row holds a note
    expect(fs.readdirSync(self.path)).toEqual([]);
  });

  it("housekeeping removes the clones of self conversations idle for a month, and keeps recent or busy ones", async () => {
    env = await coordinationEnv();
    const self = await selfOf(env);
    await sourceCheckout(self.path);
    const idle = await startConversation(env.db, env.clock, self, "vieux", null, { origin: "repair" });
    const busy = await startConversation(env.db, env.clock, self, "occupé", null, { origin: "repair" });
    for (const c of [idle, busy]) await agentWorkdir(env.engine, c.conversation.id, self);
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", idle.item.id).execute();
    env.clock.advance(31 * 24 * 3600_000);
    const recent = await startConversation(env.db, env.clock, self, "récent", null, { origin: "repair" });
    await agentWorkdir(env.engine, recent.conversation.id, self);

    expect(await pruneClones(env.engine)).toBe(1);
    expect(fs.existsSync(selfClonePath(env.config.dataDir, idle.conversation.id))).toBe(false);
    expect(fs.existsSync(`${selfClonePath(env.config.dataDir, idle.conversation.id)}.seal`)).toBe(false);
    expect(fs.existsSync(selfClonePath(env.config.dataDir, busy.conversation.id))).toBe(true);
    expect(fs.existsSync(selfClonePath(env.config.dataDir, recent.conversation.id))).toBe(true);
  });
});
