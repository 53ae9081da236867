import fs from "node:fs";
import path from "node:path";
import {
  commitClone,
  fetchFromClone,
  isSealedClone,
  makeClone,
  type MergeResult,
  mergeIntoCheckout,
  removeClone,
} from "../workspaces/index.js";
import { repoGit, repoGitOrNull, type GitJailMode } from "../isolation/index.js";

/** How a merge into the main checkout ended (the merge every work brought back shares). */
export type { MergeResult };

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
  /** Commits everything in the clone of `repo` (if anything changed) and returns its HEAD. */
  commitAll(repo: string, clone: string, message: string): Promise<string>;
  /** Brings the clone's `branch` into `repo` (its working tree and HEAD untouched); returns the branch's revision there. */
  fetchBranch(repo: string, clone: string, branch: string): Promise<string>;
  /** Brings `revision` into `branch` checked out in `repo`: fast-forward, else a merge commit. */
  merge(repo: string, opts: { branch: string; revision: string; message: string }): Promise<MergeResult>;
  /** Removes the clone and the branch from `repo`; nothing to remove is not an error. */
  removeClone(repo: string, clone: string, branch: string | null): Promise<void>;
}

/**
 * The production implementation: every command through `repoGit` (jailed, its repository's
 * command-running configuration disarmed, no hook), since a project's checkout and its clones are
 * written by agents. Commits and merges are unattended: codexpi's identity, no signing, no editor.
 */
export function gitPort(jail: GitJailMode): OrchestrationGit {
  /** A command that reads `dir` only. */
  const reading = (dir: string, args: string[]) => repoGit({ jail, cwd: dir }, args);
  /** A command that writes the repository `repo` (and, for a legacy worktree, `also`). */
  const writing = (repo: string, args: string[], also: string[] = []) =>
    repoGit({ jail, cwd: repo, write: [repo, ...also] }, args);
  const currentBranch = (dir: string) =>
    repoGitOrNull({ jail, cwd: dir }, ["symbolic-ref", "--short", "-q", "HEAD"]);

  return {
    async isRepository(dir) {
      if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return false;
      const top = await repoGitOrNull({ jail, cwd: dir }, ["rev-parse", "--show-toplevel"]);
      return top !== null && fs.realpathSync(top) === fs.realpathSync(dir);
    },

    async head(dir) {
      return { branch: await currentBranch(dir), revision: await reading(dir, ["rev-parse", "HEAD"]) };
    },

    async addClone(repo, clone, branch, base) {
      await makeClone(jail, repo, clone, branch, base);
    },

    async commitAll(repo, clone, message) {
      if (!isLegacyWorktree(clone)) return commitClone(jail, clone, message);
      // A legacy worktree's index and refs live in the repository's `.git`: both are written.
      await writing(clone, ["add", "-A"], [repo]);
      const staged = await writing(clone, ["diff", "--cached", "--name-only", "--no-ext-diff"], [repo]);
      if (staged) await writing(clone, ["commit", "--no-verify", "-q", "-m", message], [repo]);
      return writing(clone, ["rev-parse", "HEAD"], [repo]);
    },

    async fetchBranch(repo, clone, branch) {
      // A legacy worktree's branch already lives in the project's repository.
      if (isLegacyWorktree(clone)) return reading(repo, ["rev-parse", `refs/heads/${branch}`]);
      return fetchFromClone(jail, repo, clone, branch);
    },

    async merge(repo, opts) {
      return mergeIntoCheckout(jail, repo, opts);
    },

    async removeClone(repo, clone, branch) {
      if (isLegacyWorktree(clone)) {
        await writing(repo, ["worktree", "remove", "--force", clone], [clone]).catch(() =>
          fs.rmSync(clone, { recursive: true, force: true }),
        );
        await writing(repo, ["worktree", "prune"]);
      }
      removeClone(clone);
      if (branch && (await writing(repo, ["branch", "--list", branch])) !== "")
        await writing(repo, ["branch", "-D", branch]);
    },
  };
}

/**
 * A git worktree made by an earlier version under `<data dir>/worktrees/` (its `.git` is a file):
 * an orchestration started before the upgrade finishes there.
 */
function isLegacyWorktree(dir: string): boolean {
  return (
    !isSealedClone(dir) && fs.lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false })?.isFile() === true
  );
}
