import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readRegularFile } from "../isolation/index.js";
import { listedAlternates } from "../isolation/index.js";
import { repoGit, type GitJailMode, type RepoGitAccess } from "../isolation/index.js";

// The local clones agents work in (orchestrations, self-repair). A clone is made with
// `git clone --shared`: it reads the source's objects through `.git/objects/info/alternates`
// (which a jail can bind read-only) and copies or hardlinks none of them, so nothing the agent
// does in its clone can reach a file of the source repository.
//
// The engine later runs git in the clone (commit, and the source's fetch from it). By then
// programs the engine does not control have run there: Codex keeps `.git` read-only for the agent,
// but acceptance tests run in the clone without that sandbox. So every engine command in a clone
// first checks the clone's seal (its git configuration, alternates and layout as the engine made
// them, recorded next to the clone, outside what a jail shows), and runs through `repoGit`: jailed,
// with command-running configuration disarmed, so nothing planted in `.git` runs as codexpi.

/** What a command in a sealed clone may see: the clone, and the object stores it borrows, read-only. */
function cloneAccess(jail: GitJailMode, clone: string): RepoGitAccess {
  return { jail, cwd: clone, write: [clone], read: borrowedObjects(clone) };
}

/**
 * The object stores a sealed clone borrows (its alternates): the seal covers that file, so these
 * are the ones codexpi wrote when it made the clone, never a path an agent added.
 */
const borrowedObjects = (clone: string): string[] => listedAlternates(clone);

/** Runs git in a sealed clone (its seal checked first), jailed with what the clone needs; returns stdout. */
async function inClone(jail: GitJailMode, clone: string, args: string[]): Promise<string> {
  assertSealed(clone);
  return repoGit(cloneAccess(jail, clone), args);
}

/** Where a clone's seal lives: beside the clone, never inside it. */
const sealPath = (clone: string) => `${clone}.seal`;

/** The files of `.git` that decide what git runs and where it reads or writes. */
function sealOf(clone: string): string {
  const gitDir = path.join(clone, ".git");
  const st = fs.lstatSync(gitDir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) throw new Error(`${gitDir} is not a directory`);
  if (fs.existsSync(path.join(gitDir, "commondir")))
    throw new Error(`${gitDir} points to another repository (commondir)`);
  const link = firstSymlink(gitDir);
  if (link) throw new Error(`${link} is a symbolic link`);
  // Read without following a link or opening a FIFO a test command left there (either would hang
  // or redirect codexpi): anything but a regular file reads as empty, so the seal no longer matches.
  const read = (f: string) => readRegularFile(clone, path.relative(clone, f)) ?? Buffer.alloc(0);
  return createHash("sha256")
    .update(read(path.join(gitDir, "config")))
    .update("\0")
    .update(read(path.join(gitDir, "objects", "info", "alternates")))
    .digest("hex");
}

function firstSymlink(dir: string): string | null {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) return p;
    if (entry.isDirectory()) {
      const found = firstSymlink(p);
      if (found) return found;
    }
  }
  return null;
}

/** The seal's lines: the hash of what decides git's behaviour, then the revision the clone was made at. */
function readSeal(clone: string): { hash: string; base: string } | null {
  if (!fs.existsSync(sealPath(clone))) return null;
  const [hash = "", base = ""] = fs.readFileSync(sealPath(clone), "utf8").split("\n");
  return hash ? { hash, base } : null;
}

/** The revision a clone was made at (its branch's starting point), if it is a sealed clone. */
export const cloneBase = (clone: string): string | null => readSeal(clone)?.base || null;

/** Whether the clone is as the engine sealed it; throws, naming what changed, when it is not. */
export function assertSealed(clone: string): void {
  const expected = readSeal(clone)?.hash;
  if (!expected) throw new Error(`${clone} has no seal: it was not made by codexpi, or not completely`);
  if (sealOf(clone) !== expected)
    throw new Error(`the git configuration of ${clone} changed since codexpi made it: nothing is run there`);
}

/** The branch checked out in a sealed clone (null when detached). */
async function branchOf(jail: GitJailMode, clone: string): Promise<string | null> {
  return inClone(jail, clone, ["symbolic-ref", "--short", "-q", "HEAD"]).catch(() => null);
}

/**
 * A clone of `source` at `dest`, on a new `branch` made at `base`. An existing sealed clone on
 * that branch is reused (an interrupted attempt made it); an unsealed one is an incomplete
 * attempt, made again; anything else at `dest` is an error.
 */
export async function makeClone(
  jail: GitJailMode,
  source: string,
  dest: string,
  branch: string,
  base: string,
): Promise<void> {
  if (fs.existsSync(dest)) {
    if (fs.existsSync(sealPath(dest))) {
      assertSealed(dest);
      if ((await branchOf(jail, dest)) === branch) return;
      throw new Error(`${dest} exists and is not the clone of ${branch}`);
    }
    fs.rmSync(dest, { recursive: true, force: true });
  }
  // The clone is made inside an empty directory the jail shows alone (never its parent, which
  // holds other clones), reading the source only.
  fs.mkdirSync(dest, { recursive: true, mode: 0o700 });
  const objects = path.join(source, ".git", "objects");
  // --shared: objects through alternates (no copy, no hardlink); --no-checkout, then the branch
  // at `base` exactly (the source's HEAD may have moved since `base` was read).
  // `fresh`: dest is the empty directory made above, then the clone git made there; nothing else
  // ran in it yet (the seal is written only after), so it holds git's own configuration only.
  await repoGit({ jail, cwd: dest, write: [dest], read: [source], fresh: true }, [
    "clone",
    "--shared",
    "--no-checkout",
    "--quiet",
    "--",
    fs.realpathSync(source),
    fs.realpathSync(dest),
  ]);
  await repoGit({ jail, cwd: dest, write: [dest], read: [objects], fresh: true }, [
    "checkout",
    "-q",
    "-b",
    branch,
    base,
    "--",
  ]);
  fs.writeFileSync(sealPath(dest), `${sealOf(dest)}\n${base}\n`, { mode: 0o600 });
}

/**
 * Commits everything in a sealed clone (if anything changed, or a merge the engine started there
 * awaits its commit) and returns its HEAD.
 */
export async function commitClone(jail: GitJailMode, clone: string, message: string): Promise<string> {
  await inClone(jail, clone, ["add", "-A"]);
  // Never `.codexpi/` (the files people shared, the agent's outbox): it is no part of the work.
  // Its index entries go back to HEAD's (an exclude pathspec fails once it is in info/exclude).
  await inClone(jail, clone, ["reset", "-q", "--", ".codexpi"]);
  const staged = await inClone(jail, clone, ["diff", "--cached", "--name-only", "--no-ext-diff"]);
  // A merge whose resolution kept the branch's side stages nothing, yet is still to be recorded.
  const merging = await inClone(jail, clone, ["rev-parse", "-q", "--verify", "MERGE_HEAD"]).catch(() => "");
  if (staged || merging)
    await inClone(jail, clone, ["commit", "--no-verify", "-q", "--no-edit", "-m", message]);
  return inClone(jail, clone, ["rev-parse", "HEAD"]);
}

/**
 * Runs a git command that only reads a sealed clone (its seal checked first): the clone and the
 * object stores it borrows are shown read-only. Returns stdout.
 */
export async function readClone(jail: GitJailMode, clone: string, args: string[]): Promise<string> {
  assertSealed(clone);
  return repoGit({ jail, cwd: clone, read: borrowedObjects(clone) }, args);
}

/**
 * Brings `branch` of the repository `source` (the project a clone was made from) into a sealed
 * clone as `ref` (forced), without touching the clone's working tree, index or HEAD; returns the
 * revision. The source is only read.
 */
export async function fetchIntoClone(
  jail: GitJailMode,
  clone: string,
  source: string,
  branch: string,
  ref: string,
): Promise<string> {
  assertSealed(clone);
  const access: RepoGitAccess = { ...cloneAccess(jail, clone), read: [source, ...borrowedObjects(clone)] };
  await repoGit(access, [
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--upload-pack=git-upload-pack",
    "--",
    fs.realpathSync(source),
    `+refs/heads/${branch}:${ref}`,
  ]);
  return repoGit(access, ["rev-parse", ref]);
}

/**
 * Starts merging `revision` into the branch of a sealed clone and leaves it for the agent to
 * finish: a clean merge is left staged, a conflicting one with its markers in the files (which are
 * returned); `commitClone` records the merge after the agent's turn. A merge already under way is
 * left as it is; `merging` is false when the branch already contains `revision`.
 */
export async function startMergeInClone(
  jail: GitJailMode,
  clone: string,
  revision: string,
): Promise<{ merging: boolean; conflicts: string[] }> {
  const mergeHead = () => inClone(jail, clone, ["rev-parse", "-q", "--verify", "MERGE_HEAD"]).catch(() => "");
  if (!(await mergeHead())) {
    const failed = await inClone(jail, clone, [
      "merge",
      "--no-ff",
      "--no-commit",
      "--no-verify",
      "-q",
      revision,
    ])
      .then(() => null)
      .catch((err: unknown) => err);
    // A conflict leaves the merge under way (its markers are the agent's to resolve); anything
    // else (a change not committed yet in the way) started nothing and is the caller's to hear.
    if (failed && !(await mergeHead())) throw failed;
  }
  if (!(await mergeHead())) return { merging: false, conflicts: [] };
  const unmerged = await inClone(jail, clone, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  return { merging: true, conflicts: unmerged.split("\0").filter(Boolean) };
}

/**
 * Brings `branch` of a sealed clone into the repository `repo` under the same name (forced: the
 * branch is codexpi's own), without touching the repository's working tree, index or HEAD —
 * git refuses to fetch into the branch a checkout has out.
 */
export async function fetchFromClone(
  jail: GitJailMode,
  repo: string,
  clone: string,
  branch: string,
): Promise<string> {
  assertSealed(clone);
  // The repository is written (objects, the branch); the clone and what it borrows are only read.
  const access: RepoGitAccess = { jail, cwd: repo, write: [repo], read: [clone, ...borrowedObjects(clone)] };
  await repoGit(access, [
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--upload-pack=git-upload-pack",
    "--",
    fs.realpathSync(clone),
    `+refs/heads/${branch}:refs/heads/${branch}`,
  ]);
  return repoGit(access, ["rev-parse", `refs/heads/${branch}`]);
}

/** Removes a clone and its seal (never following a link out of it); nothing there is not an error. */
export function removeClone(clone: string): void {
  fs.rmSync(clone, { recursive: true, force: true });
  fs.rmSync(sealPath(clone), { force: true });
}

/** Whether `dir` is a clone codexpi made (it has a seal), as opposed to a legacy git worktree. */
export const isSealedClone = (dir: string): boolean => fs.existsSync(sealPath(dir));

/**
 * Why an agent may not work in `dir` (null when it may): missing, or a clone whose `.git` changed
 * since codexpi made it (a jail binds what its alternates list, so they must be codexpi's). A
 * git worktree an earlier version made, without seal, is still accepted.
 */
export function unusableWorkdir(dir: string): string | null {
  if (!fs.existsSync(dir)) return `${dir} does not exist`;
  if (!isSealedClone(dir))
    return fs.lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false })?.isFile()
      ? null
      : `${dir} has no seal`;
  try {
    assertSealed(dir);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
