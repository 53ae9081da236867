/**
 * Issue 16, findings 1 and 2, tried as an attacker would: a full-access agent (real `codexpi
 * worker`, real Codex in the jail, a fake model whose replies run shell commands) plants git hooks,
 * an fsmonitor command, and an alternates file with an alternate-refs command in its project's
 * `.git`. Its owner then runs an orchestration of that project through the engine's use cases, as
 * a person would: draft, approval, the agent's work in its clone (real Codex again), verification
 * (commit and fetch), approval, confirmed merge, clean-up. Nothing planted may run as codexpi; the
 * positive control runs the same git operations the way codexpi used to, and they do fire.
 */
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import {
  approveDraft,
  approveRevision,
  createOrchestration,
  mergeOrchestration,
  verifyOrchestration,
} from "../../src/engine/orchestrations/service.js";
import { codexEngine, finished, outsideDir } from "../support/codexEngine.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { GIT_ENV, git, isolateGit } from "../engine/orchestrations/repo.js";

const TOKEN = `xoxb-${"5".repeat(12)}-${"6".repeat(13)}-plantedgittoken`;
const OWNER_ACTOR = { userId: "UOWNER", isAdmin: false };
const APP_TEST = [
  process.execPath,
  "-e",
  "process.exit(require('fs').readFileSync('app.txt','utf8').trim()==='approved'?0:1)",
];
let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;
const savedToken = process.env.SLACK_BOT_TOKEN;

beforeAll(async () => {
  jail = await jailAvailable();
  isolateGit();
});

afterEach(async () => {
  await env?.close();
  env = undefined;
  if (savedToken === undefined) delete process.env.SLACK_BOT_TOKEN;
  else process.env.SLACK_BOT_TOKEN = savedToken;
});

/** A script that, if anything runs it, appends its name and the token it can see to `out`. */
const probe = (name: string, out: string) =>
  `#!/bin/sh\necho "${name} token=$SLACK_BOT_TOKEN" >> ${out}\ncat >/dev/null 2>&1 </dev/null\n`;

/** A shell line that writes `text` to `file` exactly (no quoting or expansion on the way) and makes it executable. */
const writeExecutable = (file: string, text: string) =>
  `echo ${Buffer.from(text).toString("base64")} | base64 -d > ${file} && chmod +x ${file}`;

/** The agent's plant: hooks, fsmonitor, and an alternates file with an alternate-refs command. */
function plantScript(project: string, out: string): string {
  const hooks = ["post-merge", "reference-transaction", "post-checkout", "pre-commit", "post-commit"];
  const lines = [
    "set -e",
    ...hooks.map((h) => writeExecutable(`.git/hooks/${h}`, probe(h, out))),
    writeExecutable(".git/fsmon.sh", probe("fsmonitor", out)),
    writeExecutable(".git/altrefs.sh", probe("alternate-refs", out)),
    `git config core.fsmonitor ${project}/.git/fsmon.sh`,
    `git config core.alternateRefsCommand ${project}/.git/altrefs.sh`,
    // An alternate counts as a repository (its refs listed by the command) when it has a refs/ beside objects/.
    "mkdir -p .git/borrowed/objects .git/borrowed/refs",
    `echo ${project}/.git/borrowed/objects >> .git/objects/info/alternates`,
    "echo PLANTED",
  ];
  return lines.join("\n");
}

async function gitProject(name: string) {
  const e = env!;
  const project = await e.addProject({ name, ownerId: "UOWNER", fullAccess: true, mergeConfirmation: true });
  await git(project.path, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(project.path, "app.txt"), "base\n");
  await git(project.path, "add", "app.txt");
  await git(project.path, "commit", "-q", "-m", "Base");
  return project;
}

/** The full-access agent of `project` runs `script` (real Codex, jailed); returns what it printed. */
async function agentRuns(project: { id: string }, script: string): Promise<string> {
  const e = env!;
  const before = e.fake.requests.length;
  e.fake.enqueue({ kind: "shell", command: ["sh", "-c", script] }, { kind: "text", text: "fait" });
  const { item } = await startConversation(e.db, e.clock, project as never, "range", "UOWNER");
  await e.engine.dispatch();
  expect(await finished(e.db, item.id)).toMatchObject({ status: "done" });
  return JSON.stringify(functionCallOutputs(e.fake.requests[before + 1] ?? {}));
}

/** The owner's orchestration, driven through the use cases up to and including the merge. */
async function orchestrateAndMerge(projectId: string) {
  const e = env!;
  let flow = await createOrchestration(e.engine, OWNER_ACTOR, {
    project_id: projectId,
    name: "Petite retouche",
    request: "Mettre approved dans app.txt.",
    acceptance_criteria: ["app.txt vaut approved"],
    tests: [APP_TEST],
    engine: "codex",
  });
  flow = await approveDraft(e.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
  expect(flow.status).toBe("AGENT_RUNNING");
  // The orchestration's own agent (restricted, in its clone) does the work with real Codex.
  e.fake.enqueue(
    { kind: "shell", command: ["sh", "-c", "echo approved > app.txt"] },
    { kind: "text", text: "app.txt vaut approved" },
  );
  await e.engine.dispatch();
  expect(await finished(e.db, flow.queue_id!)).toMatchObject({ status: "done" });
  await e.engine.tick();
  flow = await verifyOrchestration(e.engine, OWNER_ACTOR, flow.id);
  expect(flow.status).toBe("USER_REVIEW");
  flow = await approveRevision(e.engine, OWNER_ACTOR, flow.id, flow.verified_revision!);
  flow = await mergeOrchestration(e.engine, OWNER_ACTOR, flow.id, { confirm: true });
  return flow;
}

const fired = (out: string) => (fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "");

describe("issue 16 findings 1 and 2: what an agent plants in .git never runs as codexpi", () => {
  it("hooks, fsmonitor and an alternate-refs command planted by a full-access agent do not run during the owner's orchestration (verify, merge, clean-up); the same git operations run the old way do fire them, with the token", async (ctx) => {
    if (!jail) ctx.skip();
    // The bot's process holds the Slack token, as `serve` does.
    process.env.SLACK_BOT_TOKEN = TOKEN;
    env = await codexEngine({ env: { SLACK_BOT_TOKEN: TOKEN } });
    const project = await gitProject("planted");
    const out = path.join(outsideDir(), "fired.log");

    expect(await agentRuns(project, plantScript(project.path, out))).toContain("PLANTED");
    // The plant is really there, seen from the host.
    expect(fs.statSync(path.join(project.path, ".git", "hooks", "post-merge")).mode & 0o111).toBeTruthy();
    expect(await git(project.path, "config", "core.fsmonitor")).toContain("fsmon.sh");

    const flow = await orchestrateAndMerge(project.id);
    expect(flow.status).toBe("MERGED");
    expect(fs.readFileSync(path.join(project.path, "app.txt"), "utf8")).toBe("approved\n");
    expect(fired(out)).toBe("");

    // Positive control: the operations codexpi used to run, as the bot (its environment, no jail,
    // the flags of the old `HARDENED` list on the fetch), fire every planted script.
    const asBot = { cwd: project.path, env: { ...process.env, ...GIT_ENV }, reject: false } as const;
    const side = path.join(outsideDir(), "side");
    await execa("git", ["clone", "-q", "--shared", project.path, side], { env: GIT_ENV });
    fs.writeFileSync(path.join(side, "app.txt"), "more\n");
    await execa("git", ["-c", "core.hooksPath=/dev/null", "commit", "-qam", "more"], {
      cwd: side,
      env: GIT_ENV,
    });
    const hardened = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];
    await execa(
      "git",
      [...hardened, "fetch", "-q", "--no-tags", side, "+refs/heads/main:refs/heads/side"],
      asBot,
    );
    await execa("git", ["status", "--porcelain"], asBot);
    await execa("git", ["merge", "--ff-only", "-q", "side"], asBot);
    await execa("git", ["branch", "-D", "side"], asBot);
    const log = fired(out);
    for (const name of ["alternate-refs", "fsmonitor", "post-merge", "reference-transaction"])
      expect(log).toContain(`${name} token=${TOKEN}`);
  });
});
