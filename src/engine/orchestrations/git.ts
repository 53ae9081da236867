import fs from "node:fs";
import path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { commitClone, fetchFromClone, isSealedClone, makeClone, removeClone } from "../agents/clones.js";
import { capText } from "../text/cap.js";

/** How a merge into the main checkout ended. */
export type MergeResult =
  | { ok: true; revision: string; how: "fast-forward" | "merge-commit" | "already-merged" }
  | { ok: false; reason: "main_dirty" | "main_moved" | "conflict"; detail: string };

/**
 * The git operations an orchestration needs (a port: tests may inject one that fails on purpose).
 * The agent works in a local clone of the project (never a worktree: a worktree's `.git` points
 * into the main checkout, which a jail must not show); the engine brings the clone's branch back
 * into the project for approval and merge. Every operation is idempotent, so that a step
 * interrupted by a crash can simply run again.
 */
export interface OrchestrationGit {
  /** Whether `dir` is the top of a git work tree. */
  isRepository(dir: string): Promise<boolean>;
  /** The branch checked out in `dir` (null when detached) and its HEAD. */
  head(dir: string): Promise<{ branch: string | null; revision: string }>;
  /** A clone of `repo` at `clone` on `branch` (created from `base` when new); reused when present. */
  addClone(repo: string, clone: string, branch: string, base: string): Promise<void>;
  /** Commits everything in the clone (if anything changed) and returns its HEAD. */
  commitAll(clone: string, message: string): Promise<string>;
  /** Brings the clone's `branch` into `repo` (its working tree and HEAD untouched); returns the branch's revision there. */
  fetchBranch(repo: string, clone: string, branch: string): Promise<string>;
  /** Brings `revision` into `branch` checked out in `repo`: fast-forward, else a merge commit. */
  merge(repo: string, opts: { branch: string; revision: string; message: string }): Promise<MergeResult>;
  /** Removes the clone and the branch from `repo`; nothing to remove is not an error. */
  removeClone(repo: string, clone: string, branch: string | null): Promise<void>;
}

// Commits are made unattended by codexpi: an explicit identity (the host may have none) and no
// signing prompt. Hooks are skipped on commit and merge (`--no-verify`): the acceptance tests are
// the verification, and a hook could wait for a terminal that does not exist.
const CONFIG = ["user.name=codexpi", "user.email=codexpi@localhost", "commit.gpgsign=false"];
// simple-git strips every ambient GIT_* variable; an operator's (or a test's) choice of global
// and system configuration is passed through on purpose.
const PASSED_ENV = ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"];

function git(dir: string): SimpleGit {
  return simpleGit({
    baseDir: dir,
    config: CONFIG,
    allowEnvironment: PASSED_ENV,
    unsafe: { allowUnsafeConfigPaths: true },
    timeout: { block: 120_000 },
    // Any non-zero exit is a failure (simple-git otherwise accepts a silent non-zero exit).
    errors: (error, result) =>
      error ?? (result.exitCode === 0 ? undefined : Buffer.concat([...result.stdErr, ...result.stdOut])),
  });
}

const trimmed = (s: string) => s.trim();

async function currentBranch(g: SimpleGit): Promise<string | null> {
  return g.raw(["symbolic-ref", "--short", "-q", "HEAD"]).then(trimmed, () => null);
}

async function branchExists(g: SimpleGit, branch: string): Promise<boolean> {
  return (await g.raw(["branch", "--list", branch])).trim() !== "";
}

/** The production implementation, through simple-git. */
export const simpleGitPort: OrchestrationGit = {
  async isRepository(dir) {
    if (!fs.existsSync(dir)) return false;
    const top = await git(dir)
      .raw(["rev-parse", "--show-toplevel"])
      .then(trimmed, () => null);
    return top !== null && fs.realpathSync(top) === fs.realpathSync(dir);
  },

  async head(dir) {
    const g = git(dir);
    return { branch: await currentBranch(g), revision: (await g.raw(["rev-parse", "HEAD"])).trim() };
  },

  async addClone(repo, clone, branch, base) {
    await makeClone(repo, clone, branch, base);
  },

  async commitAll(clone, message) {
    if (!isLegacyWorktree(clone)) return commitClone(clone, message);
    const g = git(clone);
    await g.raw(["add", "-A"]);
    const staged = (await g.raw(["diff", "--cached", "--name-only"])).trim();
    if (staged) await g.raw(["commit", "--no-verify", "-q", "-m", message]);
    return (await g.raw(["rev-parse", "HEAD"])).trim();
  },

  async fetchBranch(repo, clone, branch) {
    // A legacy worktree's branch already lives in the project's repository.
    if (isLegacyWorktree(clone)) return (await git(repo).raw(["rev-parse", `refs/heads/${branch}`])).trim();
    return fetchFromClone(repo, clone, branch);
  },

  async merge(repo, { branch, revision, message }) {
    const g = git(repo);
    const current = await currentBranch(g);
    if (current !== branch) return { ok: false, reason: "main_moved", detail: current ?? "HEAD" };
    const head = (await g.raw(["rev-parse", "HEAD"])).trim();
    // Checked before "dirty": a retry after a crash that followed a successful merge is a success.
    if ((await g.raw(["merge-base", revision, head])).trim() === revision)
      return { ok: true, revision: head, how: "already-merged" };
    const dirty = (await g.raw(["status", "--porcelain", "--untracked-files=no"])).trim();
    if (dirty) return { ok: false, reason: "main_dirty", detail: capLines(dirty, 10) };
    const fastForward = (await g.raw(["merge-base", head, revision])).trim() === head;
    try {
      if (fastForward) await g.raw(["merge", "--ff-only", "-q", revision]);
      else await g.raw(["merge", "--no-ff", "--no-verify", "--no-edit", "-q", "-m", message, revision]);
    } catch (err) {
      await g.raw(["merge", "--abort"]).catch(() => undefined);
      return { ok: false, reason: "conflict", detail: capText((err as Error).message, 2000) };
    }
    return {
      ok: true,
      revision: (await g.raw(["rev-parse", "HEAD"])).trim(),
      how: fastForward ? "fast-forward" : "merge-commit",
    };
  },

  async removeClone(repo, clone, branch) {
    const g = git(repo);
    if (isLegacyWorktree(clone)) {
      await g
        .raw(["worktree", "remove", "--force", clone])
        .catch(() => fs.rmSync(clone, { recursive: true, force: true }));
      await g.raw(["worktree", "prune"]);
    }
    removeClone(clone);
    if (branch && (await branchExists(g, branch))) await g.raw(["branch", "-D", branch]);
  },
};

/**
 * A git worktree made by an earlier version under `<data dir>/worktrees/` (its `.git` is a file):
 * an orchestration started before the upgrade finishes there.
 */
function isLegacyWorktree(dir: string): boolean {
  return (
    !isSealedClone(dir) && fs.lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false })?.isFile() === true
  );
}

/** The first `max` lines, and how many more there are (a list of files people read, not data). */
function capLines(text: string, max: number): string {
  const lines = text.split("\n");
  return lines.length <= max ? text : `${lines.slice(0, max).join("\n")}\n[… +${lines.length - max}]`;
}
