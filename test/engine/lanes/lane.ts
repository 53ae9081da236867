import fs from "node:fs";
import path from "node:path";
import type { GitJailMode } from "../../../src/engine/isolation/index.js";
import { makeClone } from "../../../src/engine/workspaces/index.js";
import { tempDir } from "../../support/engine.js";
import { execa } from "execa";
import { GIT_ENV, git, isolateGit } from "../orchestrations/repo.js";

/** The lanes' tests run git as production does: in the bubblewrap jail. */
export const JAIL: GitJailMode = "bwrap";

/** A project's checkout (`git init -b main`, app.txt committed) in a fresh temp dir. */
export async function project(): Promise<{ dir: string; root: string }> {
  isolateGit();
  const dir = tempDir("codexpi-lane-");
  const root = path.join(dir, "project");
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  write(root, "app.txt", "one\ntwo\nthree\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  return { dir, root };
}

/** A lane of the project: a sealed clone on `codexpi/<slug>-1`, made at main's HEAD. */
export async function lane(p: { dir: string; root: string }, slug = "work") {
  const clone = path.join(p.dir, "lanes", slug);
  const branch = `codexpi/${slug}-1`;
  fs.mkdirSync(path.dirname(clone), { recursive: true });
  const base = await git(p.root, "rev-parse", "HEAD");
  await makeClone(JAIL, p.root, clone, branch, base);
  return { clone, branch, base };
}

/** Writes a file (its folders made). */
export function write(root: string, file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

/** Commits everything in a repository with plain git, as the test's stand-in for a person or agent. */
export async function commitAll(root: string, message: string): Promise<string> {
  // Hooks and fsmonitor off (a test plants them), and no stdin a planted program could wait on.
  const run = (...args: string[]) =>
    execa("git", ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args], {
      cwd: root,
      env: GIT_ENV,
      stdin: "ignore",
    });
  await run("add", "-A");
  await run("commit", "-q", "-m", message);
  return (await run("rev-parse", "HEAD")).stdout.trim();
}

export const read = (root: string, file: string): string => fs.readFileSync(path.join(root, file), "utf8");

/** A script that appends its name to `log` whenever something runs it. */
function probe(dir: string, name: string, log: string): string {
  const file = path.join(dir, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> ${log}\ncat >/dev/null 2>&1\nexit 0\n`, { mode: 0o755 });
  return file;
}

/** Hooks git runs on commit, merge, checkout and ref updates. */
const HOOKS = [
  "pre-commit",
  "commit-msg",
  "post-commit",
  "pre-merge-commit",
  "post-merge",
  "post-checkout",
  "reference-transaction",
];

/**
 * Plants in `repo`'s `.git` what an agent could to make git run its programs: every hook of
 * HOOKS and, unless `hooksOnly` (a sealed clone's configuration is under its seal), an fsmonitor.
 * Returns the log each run appends its name to.
 */
export async function plant(repo: string, opts: { hooksOnly?: boolean } = {}): Promise<string> {
  const scripts = tempDir("codexpi-lane-plant-");
  const log = path.join(scripts, "fired.log");
  for (const hook of HOOKS) {
    fs.copyFileSync(probe(scripts, hook, log), path.join(repo, ".git", "hooks", hook));
    fs.chmodSync(path.join(repo, ".git", "hooks", hook), 0o755);
  }
  if (!opts.hooksOnly) await git(repo, "config", "core.fsmonitor", probe(scripts, "fsmonitor", log));
  return log;
}

/** The names logged by planted programs that ran. */
export const fired = (log: string): string[] =>
  fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : [];

/** Git as a person runs it: the repository's hooks and configuration obeyed (positive controls). */
export async function plainGit(cwd: string, ...args: string[]): Promise<string> {
  const r = await execa("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, stdin: "ignore" });
  return r.stdout.trim();
}
