/**
 * A project's Codex state and credentials, attacked as an agent would: real `codexpi worker`
 * processes run the real Codex binary (against a fake model on 127.0.0.1) inside the jail, and
 * the "agent" runs whatever command the fake model asks for. Each attack has a positive control
 * showing that the probe would have seen the attack land.
 */
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { projectCodexState } from "../../src/engine/isolation/codexJail.js";
import { findBwrap, jailArgs } from "../../src/engine/isolation/jail.js";
import { codexEngine, finished, outsideDir } from "../support/codexEngine.js";
import { functionCallOutputs, inputText } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { removeTree } from "../support/removeTree.js";

const OPERATOR_KEY = "sk-operator-key-0171";
const ATTACKER_KEY = "sk-ATTACKER";
let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;
const outside: string[] = [];

beforeAll(async () => {
  jail = await jailAvailable();
});

afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const d of outside.splice(0)) await removeTree(d);
});

/** Runs one shell command as the agent of `project` and returns what the command printed. */
async function agentRuns(project: { id: string }, script: string): Promise<string> {
  const e = env!;
  const before = e.fake.requests.length;
  e.fake.enqueue({ kind: "shell", command: ["sh", "-c", script] }, { kind: "text", text: "fait" });
  const { item } = await startConversation(e.db, e.clock, project as never, "lis", "UOWNER");
  await e.engine.dispatch();
  expect(await finished(e.db, item.id)).toMatchObject({ status: "done" });
  return JSON.stringify(functionCallOutputs(e.fake.requests[before + 1] ?? {}));
}

/** One plain turn of `project` (answered "ok"); returns the bearer of each model request it made. */
async function turnBearers(project: { id: string }, owner: string): Promise<string[]> {
  const e = env!;
  const from = e.fake.log.length;
  const { item } = await startConversation(e.db, e.clock, project as never, "bonjour", owner);
  await e.engine.dispatch();
  expect(await finished(e.db, item.id)).toMatchObject({ status: "done" });
  return e.fake.log
    .slice(from)
    .filter((r) => r.method === "POST" && r.path.endsWith("/responses"))
    .map((r) => String(r.headers.authorization));
}

describe("credentials no agent can change for another project (real Codex in the jail)", () => {
  it("finding 3: a full-access agent finds only a stand-in auth.json it cannot change; every project's requests reach the model with the operator's key, added by the gateway", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ authFile: true });
    const operatorAuth = path.join(env.home.dir, "auth.json");
    const operatorText = JSON.stringify({ OPENAI_API_KEY: OPERATOR_KEY });
    fs.writeFileSync(operatorAuth, operatorText, { mode: 0o600 });
    const a = await env.addProject({ name: "attacker", ownerId: "UOWNER", fullAccess: true });
    const b = await env.addProject({ name: "victim", ownerId: "UOTHER" });

    const out = await agentRuns(
      a,
      `cat /codex-home/auth.json; printf '{"OPENAI_API_KEY":"${ATTACKER_KEY}"}' > /codex-home/auth.json; echo WROTE-$?`,
    );
    expect(out).toContain("codexpi-stand-in-not-a-credential"); // it read the file: a stand-in
    expect(out).not.toContain(OPERATOR_KEY);
    expect(out).not.toContain("WROTE-0");
    expect(fs.readFileSync(operatorAuth, "utf8")).toBe(operatorText);
    const victim = await turnBearers(b, "UOTHER");
    expect(victim.length).toBeGreaterThan(0);
    expect(victim.every((h) => h === `Bearer ${OPERATOR_KEY}`)).toBe(true);
    const own = await turnBearers(a, "UOWNER");
    expect(own.every((h) => h === `Bearer ${OPERATOR_KEY}`)).toBe(true);
  }, 150_000);

  it("finding 3, positive control: the same write from a jail that binds the operator's auth.json read-write does reach the other project's model requests", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ authFile: true });
    const operatorAuth = path.join(env.home.dir, "auth.json");
    fs.writeFileSync(operatorAuth, JSON.stringify({ OPENAI_API_KEY: OPERATOR_KEY }), { mode: 0o600 });
    const a = await env.addProject({ name: "attacker", ownerId: "UOWNER", fullAccess: true });
    const b = await env.addProject({ name: "victim", ownerId: "UOTHER" });
    expect(await turnBearers(b, "UOTHER")).toContain(`Bearer ${OPERATOR_KEY}`);

    // The jail as it was built for restricted turns before the gateway: the operator's file bound read-write.
    const args = jailArgs(
      {
        mounts: [
          { source: a.path, writable: true },
          { source: operatorAuth, target: "/codex-home/auth.json", writable: true },
        ],
        cwd: a.path,
        network: false,
        nestedSandbox: true,
      },
      ["sh", "-c", `printf '{"OPENAI_API_KEY":"${ATTACKER_KEY}"}' > /codex-home/auth.json`],
    );
    const r = await execa(findBwrap()!, args, { reject: false });
    expect(r.exitCode).toBe(0);
    expect(await turnBearers(b, "UOTHER")).toContain(`Bearer ${ATTACKER_KEY}`);
  }, 150_000);
});

describe("the worker never follows a link planted in a project's Codex state", () => {
  it("finding 5: a full-access agent links /codex-home/AGENTS.md to a host path; once the operator adds an AGENTS.md the next turn runs with it and nothing is created at the link's target", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const a = await env.addProject({ name: "planter", ownerId: "UOWNER", fullAccess: true });
    const hostDir = outsideDir();
    outside.push(hostDir);
    const hostTarget = path.join(hostDir, "planted.md");
    const state = projectCodexState(env.config.dataDir, a.id);

    const out = await agentRuns(a, `ln -s ${hostTarget} /codex-home/AGENTS.md; echo LINKED-$?`);
    expect(out).toContain("LINKED-0");
    // Positive control: the link is really there, seen from the host, pointing out of the jail.
    const planted = path.join(state, "AGENTS.md");
    expect(fs.lstatSync(planted).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(planted)).toBe(hostTarget);

    fs.writeFileSync(path.join(env.home.dir, "AGENTS.md"), "OPERATOR-RULES-5521: answer briefly.\n");
    const before = env.fake.requests.length;
    const next = await agentRuns(a, "cat /codex-home/AGENTS.md");
    expect(next).toContain("OPERATOR-RULES-5521"); // the operator's file is bound where the link was
    expect(inputText(env.fake.requests[before] ?? {})).toContain("OPERATOR-RULES-5521");
    expect(fs.existsSync(hostTarget)).toBe(false);
    expect(fs.readdirSync(hostDir)).toEqual([]);
    expect(fs.lstatSync(planted).isFile()).toBe(true);
  }, 150_000);
});
