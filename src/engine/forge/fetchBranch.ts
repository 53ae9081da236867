import fs from "node:fs";
import path from "node:path";
import { EngineError } from "../errors.js";
import { repoGit, repoGitOrNull } from "../isolation/index.js";
import { isPushableBranch, type PushRequest, pushUrl, remoteAccess, scrubbed } from "./push.js";
import { remoteTransport } from "./remoteUrl.js";

// Issue 33, item 3: a pull request's conversation starts its lane from the pull request's head
// branch, which the project's checkout may not have. It is fetched the way a push is made, in
// reverse: over the network only from a bare repository codexpi makes for it under its data
// directory (git's own configuration, codexpi's askpass and token, the remote the project's
// checkout names), never with configuration an agent wrote; then brought into the checkout by a
// local fetch without network (objects, and the branch: created, or moved on as a fast-forward).

/** Where fetch repositories live: under the data directory, which no agent's jail shows. */
const fetchRoot = (dataDir: string): string => path.join(dataDir, "fetch");

/** What a fetch did to the checkout's branch. */
export type BranchFetch = "created" | "updated" | "kept";

/**
 * Brings `req.branch` from the project's remote into the checkout `req.repoPath` (also
 * `remoteFrom`). Never forced: a local branch with commits of its own, or checked out, is kept
 * as it is. When the checkout already has the branch, a remote that cannot be reached keeps it too;
 * without it, the failure is thrown (`forge_fetch_failed`, git's words scrubbed of the token).
 */
export async function fetchBranchInto(req: PushRequest): Promise<BranchFetch> {
  if (!isPushableBranch(req.branch))
    throw new EngineError("invalid", "forge_branch_invalid", { branch: req.branch });
  const ref = `refs/heads/${req.branch}`;
  const local = () =>
    repoGitOrNull({ jail: req.jail, cwd: req.repoPath }, ["rev-parse", "--verify", "-q", `${ref}^{commit}`]);
  const before = await local();
  try {
    await fetchThroughOwned(req, ref, ref);
  } catch (e) {
    if (before !== null) return "kept";
    throw e;
  }
  const after = await local();
  if (after === null) throw new EngineError("not_found", "forge_remote_missing", { remote: req.remote });
  return before === null ? "created" : before === after ? "kept" : "updated";
}

/** The branch a pull request from a fork is fetched into: codexpi's own, never a remote's name. */
export const FORK_BRANCH_PREFIX = "codexpi-fork/";

/**
 * Brings a pull (merge) request's head — `remoteRef`, the base repository's own ref of it
 * (`refs/pull/N/head`, `refs/merge-requests/N/head`), which holds a fork's commits too — into the
 * checkout's branch `local` (under FORK_BRANCH_PREFIX: codexpi's own, pushed nowhere). The same
 * fetch as fetchBranchInto; never forced either (a fork's head that was rewritten leaves the
 * branch as it was: "kept").
 */
export async function fetchPullRefInto(
  req: PushRequest,
  remoteRef: string,
  local: string,
): Promise<BranchFetch> {
  if (
    !local.startsWith(FORK_BRANCH_PREFIX) ||
    !isPushableBranch(local) ||
    !/^refs\/[a-z-]+\/\d+\/head$/.test(remoteRef)
  )
    throw new EngineError("invalid", "forge_branch_invalid", { branch: local });
  const ref = `refs/heads/${local}`;
  const read = () =>
    repoGitOrNull({ jail: req.jail, cwd: req.repoPath }, ["rev-parse", "--verify", "-q", `${ref}^{commit}`]);
  const before = await read();
  try {
    await fetchThroughOwned(req, remoteRef, ref);
  } catch (e) {
    if (before !== null) return "kept";
    throw e;
  }
  const after = await read();
  if (after === null) throw new EngineError("not_found", "forge_remote_missing", { remote: req.remote });
  return before === null ? "created" : before === after ? "kept" : "updated";
}

/** Fetches `remoteRef` into the owned repository's `ref`, then that into the checkout's `ref`. */
async function fetchThroughOwned(req: PushRequest, remoteRef: string, ref: string): Promise<void> {
  const url = await pushUrl(req);
  const transport = remoteTransport(url);
  if (!transport) throw new EngineError("invalid", "forge_remote_unsupported", { remote: req.remote });
  const { remote, write } = remoteAccess(req, url, transport);
  const target = transport.kind === "file" ? write[0]! : url;
  const root = fetchRoot(req.dataDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  const owned = fs.mkdtempSync(path.join(root, "repo-"));
  const timeoutMs = req.timeoutMs ?? 300_000;
  const fetch = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--upload-pack=git-upload-pack"];
  try {
    await repoGit({ jail: req.jail, cwd: owned, write: [owned], fresh: true, timeoutMs }, [
      "init",
      "-q",
      "--bare",
      "--",
      owned,
    ]);
    try {
      // A local remote is only read here (a push writes it).
      await repoGit({ jail: req.jail, cwd: owned, write: [owned], read: write, remote, timeoutMs }, [
        ...fetch,
        "--",
        target,
        `+${remoteRef}:${ref}`,
      ]);
    } catch (e) {
      const detail = scrubbed(e instanceof Error ? e.message : String(e), req.credential?.token);
      throw new EngineError("unavailable", "forge_fetch_failed", {
        remote: req.remote,
        branch: req.branch,
        detail,
      });
    }
    // Into the checkout, no network: no `+`, so git never rewinds a branch nor moves the one checked out.
    await repoGit({ jail: req.jail, cwd: req.repoPath, write: [req.repoPath], read: [owned], timeoutMs }, [
      ...fetch,
      "--",
      owned,
      `${ref}:${ref}`,
    ]).catch(() => null);
  } finally {
    fs.rmSync(owned, { recursive: true, force: true });
  }
}
