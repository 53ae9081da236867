import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { codexEnvironment, findBwrap, jailArgs } from "../../../src/engine/isolation/index.js";
import { ensureLane, laneOf } from "../../../src/engine/lanes/index.js";
import type { Project } from "../../../src/engine/schema.js";
import { cacheEntry, readCacheMeta, SetupFailed, setSetupSecret } from "../../../src/engine/setup/index.js";
import { protectFiles } from "../../../src/engine/setup/cache.js";
import { prepareLaunch } from "../../../src/engine/worker/launch.js";
import { clearRegisteredSecrets, redactText } from "../../../src/redaction.js";
import { testEngine } from "../../support/engine.js";
import { jailAvailable } from "../../support/jail.js";
import { git, isolateGit } from "../orchestrations/repo.js";

const run = promisify(execFile);

// Issue 31, item 4, at the engine's level (real git, the real jail, a real database; no agent):
// a project's setup runs once in a new lane, jailed, with its secrets; the next lane at the same
// base and with the same setup starts from its cached result; a changed setup or base runs it
// again; a failed one stops the turn with its redacted tail and is not cached.

/** A secret no token format matches: only its registration with the redactor can hide it. */
const SECRET = "plain-words-zebra-7731-quokka";
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** The committed setup: a random nonce (a second run writes another), the secret's hash, a line of output. */
const SETUP = `#!/bin/sh
set -e
mkdir -p node_modules/dep
od -An -N8 -tx8 /dev/urandom | tr -d ' \\n' > node_modules/dep/nonce
printf %s "$SETUP_TOKEN" | sha256sum | cut -d' ' -f1 > node_modules/dep/token.sha
echo "setup ran in $PWD as HOME=$HOME"
`;

describe("a project's setup", () => {
  let jail = false;
  beforeAll(async () => {
    jail = await jailAvailable();
  });
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
    clearRegisteredSecrets();
  });

  /** A branch-mode project whose repository commits `.codexpi/setup` and ignores node_modules. */
  async function projectWithSetup(engineEnv: Record<string, string> = {}) {
    isolateGit();
    const e = await testEngine({ env: engineEnv });
    env = e;
    const root = path.join(e.dir, "repo");
    fs.mkdirSync(path.join(root, ".codexpi"), { recursive: true });
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    fs.writeFileSync(path.join(root, ".gitignore"), "node_modules/\n");
    fs.writeFileSync(path.join(root, ".codexpi", "setup"), SETUP, { mode: 0o755 });
    await git(root, "add", "-A");
    await git(root, "commit", "-q", "-m", "Base");
    const project = await e.addProject({
      name: "repo",
      path: root,
      ownerId: "UOWNER",
      workspaceMode: "branch",
    });
    setSetupSecret(e.config.dataDir, project.id, "SETUP_TOKEN", `${SECRET}\n`);
    return { e, project, root };
  }

  async function newLane(e: NonNullable<typeof env>, project: Project, title = "Work") {
    const fresh = (await e.db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", project.id)
      .executeTakeFirstOrThrow()) as Project;
    const { conversation } = await startConversation(e.db, e.clock, fresh, title, "UOWNER", { title });
    return { conversation, fresh, dir: await ensureLane(e.engine, { conversation, project: fresh }) };
  }
  const nonceOf = (dir: string) => fs.readFileSync(path.join(dir, "node_modules", "dep", "nonce"), "utf8");

  it("S-SETUP-01: runs once in a new lane, its result is in the lane, and the next lane at the same base starts from the cache without running it", async () => {
    if (!jail) return;
    const { e, project, root } = await projectWithSetup();
    const first = await newLane(e, project, "First");
    const nonce = nonceOf(first.dir);
    expect(nonce).toMatch(/^[0-9a-f]{16}$/);
    const row = await laneOf(e.db, first.conversation.id);
    expect(row?.setup_hash).toMatch(/^[0-9a-f]{64}$/);
    const base = await git(root, "rev-parse", "HEAD");
    const entry = cacheEntry(e.config.dataDir, project.id, base, row?.setup_hash as string);
    expect(readCacheMeta(entry)?.paths).toEqual(["node_modules"]);
    // The second lane: the same nonce, so the setup did not run again (a run writes a new one).
    const second = await newLane(e, project, "Second");
    expect(nonceOf(second.dir)).toBe(nonce);
    expect((await laneOf(e.db, second.conversation.id))?.setup_hash).toBe(row?.setup_hash);
    // The lane's own work is untouched by it: git sees no change (node_modules is ignored).
    expect(await git(second.dir, "status", "--porcelain")).toBe("");
    // Later turns of a prepared lane do not run it either.
    expect(await ensureLane(e.engine, { conversation: second.conversation, project: second.fresh })).toBe(
      second.dir,
    );
    expect(nonceOf(second.dir)).toBe(nonce);
  });

  it("S-SETUP-02: a changed setup or a new base commit runs it again", async () => {
    if (!jail) return;
    const { e, project, root } = await projectWithSetup();
    const first = nonceOf((await newLane(e, project, "First")).dir);
    // A new base commit (the setup unchanged): it runs again.
    fs.writeFileSync(path.join(root, "app.txt"), "changed\n");
    await git(root, "commit", "-qam", "Change");
    const afterCommit = nonceOf((await newLane(e, project, "Second")).dir);
    expect(afterCommit).not.toBe(first);
    // The same base, an admin's setup instead: it runs again (and is cached under its own hash).
    await e.db
      .updateTable("projects")
      .set({ setup_command: `${SETUP.split("\n").slice(2).join("\n")}` })
      .where("id", "=", project.id)
      .execute();
    const admin = nonceOf((await newLane(e, project, "Third")).dir);
    expect(admin).not.toBe(afterCommit);
    expect(nonceOf((await newLane(e, project, "Fourth")).dir)).toBe(admin);
  });

  it("S-SETUP-03: a setup secret reaches the setup, and no file of the lane, no cached file and no agent environment holds it", async () => {
    if (!jail) return;
    const { e, project } = await projectWithSetup();
    const { dir, conversation } = await newLane(e, project);
    expect(fs.readFileSync(path.join(dir, "node_modules", "dep", "token.sha"), "utf8").trim()).toBe(
      sha(SECRET),
    );
    // Not in any file the agent will see (the lane, its .git), nor in the cache.
    const { stdout } = await run("grep", [
      "-rlF",
      SECRET,
      dir,
      path.join(e.config.dataDir, "setup-cache"),
    ]).catch((err: { stdout: string; code: number }) => ({ stdout: err.stdout }));
    expect(stdout).toBe("");
    // Positive control for the search: the secrets file holds it.
    expect(
      fs.readFileSync(path.join(e.config.dataDir, "credentials", `setup-${project.id}.json`), "utf8"),
    ).toContain(SECRET);
    // The worker's process and the environment its Codex is given never had it.
    expect(Object.values(process.env)).not.toContain(SECRET);
    expect(Object.values(codexEnvironment(process.env, e.config.agentEnv, {}))).not.toContain(SECRET);
    const launch = await prepareLaunch(e.engine, {
      conversation: { ...conversation } as never,
      project: (await e.db
        .selectFrom("projects")
        .selectAll()
        .where("id", "=", project.id)
        .executeTakeFirstOrThrow()) as never,
    });
    expect(JSON.stringify("failed" in launch ? launch.failed : launch.env)).not.toContain(SECRET);
  });

  it("S-SETUP-04: a failed setup stops the turn with its tail, the secret it echoed redacted; it is not cached and the next turn runs it again", async () => {
    if (!jail) return;
    const { e, project } = await projectWithSetup();
    await e.db
      .updateTable("projects")
      .set({ setup_command: 'echo "installing with $SETUP_TOKEN"; echo "registry refused"; exit 3' })
      .where("id", "=", project.id)
      .execute();
    const failed = await newLane(e, project).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(SetupFailed);
    const { tail, why, exitCode } = failed as SetupFailed;
    expect({ why, exitCode }).toEqual({ why: "exit", exitCode: 3 });
    expect(tail).toContain("installing with [redacted]");
    expect(tail).toContain("registry refused");
    expect(tail).not.toContain(SECRET);
    // Positive control: the redactor is what hides it (without the registration it stays).
    clearRegisteredSecrets();
    expect(redactText(`installing with ${SECRET}`)).toContain(SECRET);
    // Not cached, not prepared, and its half-made lane is gone.
    expect(fs.existsSync(path.join(e.config.dataDir, "setup-cache", project.id))).toBe(false);
    const conversationId = (
      await e.db.selectFrom("lanes").select("conversation_id").executeTakeFirstOrThrow()
    ).conversation_id;
    expect((await laneOf(e.db, conversationId))?.setup_hash).toBeNull();
    // The worker's launch tells it as the turn's failure (code setup_failed), tail included.
    const conversation = await e.db
      .selectFrom("conversations")
      .selectAll()
      .where("id", "=", conversationId)
      .executeTakeFirstOrThrow();
    const fresh = await e.db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", project.id)
      .executeTakeFirstOrThrow();
    const launch = await prepareLaunch(e.engine, {
      conversation: conversation as never,
      project: fresh as never,
    });
    expect("failed" in launch && launch.failed).toMatchObject({
      status: "failed",
      errorCode: "setup_failed",
    });
    const note = "failed" in launch ? (launch.failed.error ?? "") : "";
    expect(note).toContain("registry refused");
    expect(note).not.toContain(SECRET);
    // Fixed: the next turn of the same conversation runs it again, in a clean lane.
    await e.db
      .updateTable("projects")
      .set({ setup_command: "mkdir -p node_modules && echo ok > node_modules/ok" })
      .where("id", "=", project.id)
      .execute();
    const again = await ensureLane(e.engine, {
      conversation,
      project: { ...fresh, setup_command: "mkdir -p node_modules && echo ok > node_modules/ok" },
    });
    expect(fs.readFileSync(path.join(again, "node_modules", "ok"), "utf8")).toBe("ok\n");
    expect((await laneOf(e.db, conversationId))?.setup_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("S-SETUP-05: a setup over its time limit is killed with its jail and stops the turn", async () => {
    if (!jail) return;
    const { e, project } = await projectWithSetup({ CODEXPI_SETUP_TIMEOUT: "1" });
    await e.db
      .updateTable("projects")
      .set({ setup_command: "echo started; sleep 30" })
      .where("id", "=", project.id)
      .execute();
    const t0 = Date.now();
    const failed = await newLane(e, project).catch((err: unknown) => err);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(failed).toMatchObject({ why: "timeout" });
    expect((failed as SetupFailed).tail).toContain("started");
  });

  it("S-SETUP-06: a cached file brought into a lane cannot be changed in place by a jailed agent, root in its namespace (positive control: unprotected, it can)", async () => {
    if (!jail || process.getuid?.() !== 0) return;
    const { e, project, root } = await projectWithSetup();
    const first = await newLane(e, project, "First");
    const second = await newLane(e, project, "Second");
    const target = path.join(second.dir, "node_modules", "dep", "nonce");
    const before = fs.readFileSync(target, "utf8");
    // As the agent's jail is made: capabilities kept inside its user namespace (nestedSandbox).
    const agentWrites = (dir: string, file: string) =>
      run(
        findBwrap() as string,
        jailArgs(
          { mounts: [{ source: dir, writable: true }], cwd: dir, network: false, nestedSandbox: true },
          ["/bin/sh", "-c", `echo tampered > ${file}; chmod 666 ${file}; echo tampered > ${file}`],
        ),
      ).then(
        () => true,
        () => false,
      );
    expect(await agentWrites(second.dir, target)).toBe(false);
    expect(fs.readFileSync(path.join(first.dir, "node_modules", "dep", "nonce"), "utf8")).toBe(before);
    const base = await git(root, "rev-parse", "HEAD");
    const hash = (await laneOf(e.db, first.conversation.id))?.setup_hash as string;
    expect(
      fs.readFileSync(
        path.join(
          cacheEntry(e.config.dataDir, project.id, base, hash),
          "tree",
          "node_modules",
          "dep",
          "nonce",
        ),
        "utf8",
      ),
    ).toBe(before);
    // It may still replace the file with its own (the lane's directories are its own).
    // Positive control: a hard link without protectFiles is written through, into the other copy.
    const plain = path.join(e.dir, "plain");
    fs.mkdirSync(path.join(plain, "a"), { recursive: true });
    fs.writeFileSync(path.join(plain, "a", "f"), "cached\n");
    await run("cp", ["-al", path.join(plain, "a"), path.join(plain, "b")]);
    expect(await agentWrites(plain, path.join(plain, "b", "f"))).toBe(true);
    expect(fs.readFileSync(path.join(plain, "a", "f"), "utf8")).toBe("tampered\n");
    protectFiles(path.join(plain, "a"));
    expect(await agentWrites(plain, path.join(plain, "b", "f"))).toBe(false);
  });
});
