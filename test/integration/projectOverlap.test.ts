/**
 * Issue 16, finding 4, tried as an attacker would: an admin registers `outer` and, inside it,
 * `billing` (another owner, a real git repository). Real `codexpi worker` processes run the real
 * Codex binary in the jail against a fake model whose replies run shell commands as outer's
 * restricted agent. Codex's sandbox protects only the `.git` at the top of its writable root, so
 * billing's `.git/hooks` is outer's to write: the hook would run as codexpi at billing's next merge.
 */
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { installRoots } from "../../src/engine/projects/layout.js";
import { addProject } from "../../src/engine/projects/index.js";
import { newId } from "../../src/engine/ids.js";
import { codexEngine, finished } from "../support/codexEngine.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";

const CLI = path.resolve("dist/bin/main.js");
let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;

beforeAll(async () => {
  jail = await jailAvailable();
});

afterEach(async () => {
  await env?.close();
  env = undefined;
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

/** `outer`, a plain directory of UOWNER's restricted project, and a git repository `billing` with a secret. */
async function outerAndBilling(e: NonNullable<typeof env>, billing: string) {
  const outer = path.join(e.dir, "x");
  fs.mkdirSync(billing, { recursive: true });
  fs.mkdirSync(outer, { recursive: true });
  fs.writeFileSync(path.join(outer, "own.txt"), "OUTER-OWN-FILE");
  await execa("git", ["init", "-q", "-b", "main"], { cwd: billing, env: { GIT_CONFIG_GLOBAL: "/dev/null" } });
  fs.writeFileSync(path.join(billing, "secret.txt"), "BILLING-PRIVATE-SECRET");
  const project = await addProject(e.db, e.clock, { name: "outer", path: outer, ownerId: "UOWNER" });
  return { outer, project };
}

/** The attack: read billing's file, plant a post-merge hook in its `.git`. Markers split so that only a real run prints them whole. */
const attack = (billing: string) =>
  [
    "cat own.txt",
    `cat ${billing}/secret.txt`,
    `printf '#!/bin/sh\\necho PLANTED\\n' > ${billing}/.git/hooks/post-merge && echo HOOK-''WRITTEN`,
    "echo PROBE-''RAN",
  ].join("; ");

const hookOf = (billing: string) => path.join(billing, ".git", "hooks", "post-merge");

describe("projects never overlap (issue 16, finding 4; real Codex in the jail)", () => {
  it("registering billing inside outer is refused by the admin's use case, naming outer; a billing kept apart is beyond outer's agent", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const inside = path.join(env.dir, "x", "services", "billing");
    const { project: outer } = await outerAndBilling(env, inside);

    // (a) The admin's use case (`project add`, CLI and Slack) refuses it and names outer.
    await expect(
      addProject(
        env.db,
        env.clock,
        { name: "billing", path: inside, ownerId: "UBILLING" },
        installRoots(env.config),
      ),
    ).rejects.toMatchObject({ code: "invalid", reason: "project_overlaps", params: { name: "outer" } });
    const cli = await execa(process.execPath, [CLI, "project", "add", "billing", inside], {
      env: cliEnv(env),
      reject: false,
      timeout: 60_000,
    });
    expect(cli.exitCode).toBe(1);
    expect(cli.stderr).toContain(`overlaps the project outer (${fs.realpathSync(path.join(env.dir, "x"))})`);

    // Registered where the rule puts it, beside outer, billing is out of reach of outer's agent.
    const apart = path.join(env.dir, "billing");
    fs.mkdirSync(apart);
    await execa("git", ["init", "-q", "-b", "main"], { cwd: apart, env: { GIT_CONFIG_GLOBAL: "/dev/null" } });
    fs.writeFileSync(path.join(apart, "secret.txt"), "BILLING-PRIVATE-SECRET");
    await addProject(
      env.db,
      env.clock,
      { name: "billing", path: apart, ownerId: "UBILLING" },
      installRoots(env.config),
    );
    const out = await agentRuns(outer, attack(apart));
    expect(out).toContain("OUTER-OWN-FILE"); // positive control: the command ran in outer's workspace
    expect(out).toContain("PROBE-RAN");
    expect(out).not.toContain("BILLING-PRIVATE-SECRET");
    expect(out).not.toContain("HOOK-WRITTEN");
    expect(fs.existsSync(hookOf(apart))).toBe(false);
  });

  it("positive control: billing's row inserted past the check, outer's restricted agent reads billing and writes its .git/hooks/post-merge; doctor and serve then refuse the database, naming both", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const inside = path.join(env.dir, "x", "services", "billing");
    const { outer, project } = await outerAndBilling(env, inside);
    // (b) An older database, or a row written without the use case: billing inside outer.
    await env.db
      .insertInto("projects")
      .values({
        id: newId(),
        name: "billing",
        path: inside,
        owner_id: "UBILLING",
        full_access: 0,
        execution_group: null,
        merge_confirmation_required: 0,
        channel_id: null,
        role: "project",
        created_at: Date.now(),
      })
      .execute();
    const out = await agentRuns(project, attack("services/billing"));
    expect(out).toContain("BILLING-PRIVATE-SECRET");
    expect(out).toContain("HOOK-WRITTEN");
    expect(fs.readFileSync(hookOf(inside), "utf8")).toContain("PLANTED");

    // (c) Neither doctor nor serve accepts that database: both projects named, and the fix.
    const realOuter = fs.realpathSync(outer);
    const realBilling = fs.realpathSync(inside);
    const sentence = `the project "billing" (${realBilling}) is inside the project "outer" (${realOuter})`;
    const doctor = await execa(process.execPath, [CLI, "doctor"], {
      env: cliEnv(env),
      reject: false,
      timeout: 120_000,
    });
    expect(doctor.exitCode).toBe(1);
    const line = doctor.stdout.split("\n").find((l) => l.startsWith("✗ project paths: "));
    expect(line).toContain(sentence);
    expect(line).toContain('codexpi project set "billing" --path DIR');
    expect(doctor.stdout).toMatch(/^✓ layout: /m); // the other layout rule still holds: one line each

    const serve = await execa(process.execPath, [CLI, "serve"], {
      env: { ...cliEnv(env), CODEXPI_HEADLESS: "1", HEALTH_PORT: "0", CODEXPI_METRICS_PORT: "0", PORT: "0" },
      reject: false,
      timeout: 30_000,
    });
    expect(serve.timedOut).toBe(false);
    expect(serve.exitCode).toBe(1);
    const said = serve.stderr.split("\n").filter((l) => l.trim() && !l.startsWith("{"));
    expect(said).toEqual([expect.stringContaining(`codexpi serve refused: ${sentence}`)]);
  });
});

/** The CLI's environment: this engine's data directory, database and Codex home, in English. */
function cliEnv(e: NonNullable<typeof env>): Record<string, string> {
  return {
    ...(e.baseEnv as Record<string, string>),
    CODEXPI_DATA_DIR: e.config.dataDir,
    CODEXPI_LOCALE: "en",
    LOG_LEVEL: "warn",
  };
}
