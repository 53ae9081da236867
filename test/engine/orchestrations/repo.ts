import fs from "node:fs";
import path from "node:path";
import { execFile } from "node:child_process";
import { addProject } from "../../../src/engine/projects/index.js";
import { completedOutput, OWNER } from "../../support/coordination.js";
import { testEngine } from "../../support/engine.js";

/** Git isolated from the host: no global or system config, an explicit identity, no hooks. */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

/** Git started by the tests themselves (the engine's own ignores global and system configuration anyway). */
export function isolateGit(): void {
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
  process.env.GIT_CONFIG_NOSYSTEM = "1";
}

/** Runs git in `cwd` with the isolated environment; returns stdout. */
export function git(cwd: string, ...args: string[]): Promise<string> {
  // node's execFile, not execa: tests set up hundreds of repositories, and execa doubled the CPU
  // of each start in the test's process.
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "core.hooksPath=/dev/null", ...args],
      { cwd, env: { ...process.env, ...GIT_ENV }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`git ${args.join(" ")} failed: ${stderr || err.message}`))
          : resolve(stdout.trim()),
    );
  });
}

/** The seed's test: app.txt holds "draft" or "approved" (an argv list run without a shell). */
export const APP_TEST = [
  process.execPath,
  "-e",
  "const t=require('fs').readFileSync('app.txt','utf8').trim(); process.exit(['draft','approved'].includes(t) ? 0 : 1)",
];

/**
 * The seed's disposable repository: `git init -b main`, app.txt = "base\n" committed, registered
 * as a project of the owner with full access and merge confirmation required.
 */
export async function disposableRepository(opts: { mergeConfirmation?: boolean } = {}) {
  isolateGit();
  const env = await testEngine();
  const root = path.join(env.dir, "orchestration-repo");
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n", "utf8");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  const project = await addProject(env.db, env.clock, {
    name: "Disposable",
    path: root,
    ownerId: OWNER,
    fullAccess: true,
    mergeConfirmation: opts.mergeConfirmation ?? true,
  });
  return { ...env, root, projectId: project.id };
}

/** The seed's finish_agent: the agent wrote app.txt in its clone, and its item is done. */
export async function finishAgent(
  env: { db: Parameters<typeof completedOutput>[0]; clock: { now(): number } },
  flow: { worktree_path: string | null; conversation_id: string | null; queue_id: string | null },
  content: string,
): Promise<string> {
  const worktree = flow.worktree_path!;
  fs.writeFileSync(path.join(worktree, "app.txt"), content, "utf8");
  await completedOutput(
    env.db,
    flow.conversation_id!,
    flow.queue_id!,
    "J’ai modifié app.txt.",
    env.clock.now(),
  );
  return worktree;
}

export const read = (file: string): string => fs.readFileSync(file, "utf8");
