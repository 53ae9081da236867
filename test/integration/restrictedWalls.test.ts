/**
 * Issue 16, "what held, and must keep holding", tried again through the real worker and the real
 * Codex in the jail: a restricted agent (Codex's sandbox inside the jail) cannot write its
 * project's `.git`, its Codex state or the operator's shared `auth.json`, while it does write its
 * project's files (the positive control that its commands ran and could write).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { codexEngine, finished } from "../support/codexEngine.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;

beforeAll(async () => {
  jail = await jailAvailable();
  isolateGit();
});

afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe("a restricted agent's walls (real Codex in the jail)", () => {
  it("cannot write its project's .git, its Codex state or the shared auth.json; it writes its project's files", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const operatorAuth = path.join(env.home.dir, "auth.json");
    fs.writeFileSync(operatorAuth, JSON.stringify({ OPENAI_API_KEY: "sk-operator-key" }), { mode: 0o600 });
    const project = await env.addProject({ name: "restricted", ownerId: "UOWNER" });
    await git(project.path, "init", "-q", "-b", "main");
    const script = [
      `echo mine > own.txt && echo WROTE-PROJECT`,
      `echo '[core]' >> .git/config && echo WROTE-GIT-CONFIG`,
      `echo x > .git/hooks/post-merge && echo WROTE-HOOK`,
      `echo x > /codex-home/planted.txt && echo WROTE-CODEX-HOME`,
      `echo '{"OPENAI_API_KEY":"sk-ATTACKER"}' > /codex-home/auth.json && echo WROTE-AUTH`,
      `true`,
    ].join("; ");
    env.fake.enqueue({ kind: "shell", command: ["sh", "-c", script] }, { kind: "text", text: "fait" });
    const before = env.fake.requests.length;
    const { item } = await startConversation(env.db, env.clock, project, "essaie", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    const out = JSON.stringify(functionCallOutputs(env.fake.requests[before + 1] ?? {}));
    expect(out).toContain("WROTE-PROJECT"); // positive control
    expect(fs.readFileSync(path.join(project.path, "own.txt"), "utf8")).toBe("mine\n");
    for (const mark of ["WROTE-GIT-CONFIG", "WROTE-HOOK", "WROTE-CODEX-HOME", "WROTE-AUTH"])
      expect(out).not.toContain(mark);
    expect(fs.existsSync(path.join(project.path, ".git", "hooks", "post-merge"))).toBe(false);
    expect(fs.readFileSync(operatorAuth, "utf8")).toContain("sk-operator-key");
  });
});
