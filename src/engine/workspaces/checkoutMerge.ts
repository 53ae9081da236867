import { repoGit, repoGitOrNull, type GitJailMode } from "../isolation/index.js";
import { capText } from "../text/index.js";

// Bringing work done elsewhere (an orchestration's branch, a conversation's lane) into a project's
// own checkout, the branch people work on. Shared by every such merge so that all give the same
// guarantees: never over a person's uncommitted changes, never onto another branch than the one
// asked for, a merge commit when the branch moved on, and on conflict nothing left half-merged.
// Every command runs through `repoGit` (jailed, hooks and command-running configuration
// disarmed): agents can write the checkout's `.git`.

/** How a merge into a project's checkout ended; on conflict, `files` names the conflicting paths. */
export type MergeResult =
  | { ok: true; revision: string; how: "fast-forward" | "merge-commit" | "already-merged" }
  | { ok: false; reason: "main_dirty" | "main_moved" | "conflict"; detail: string; files?: string[] };

/** A refused merge (the checkout is not as a merge needs it). */
type Refusal = Extract<MergeResult, { ok: false }>;

const writing = (jail: GitJailMode, repo: string, args: string[]) =>
  repoGit({ jail, cwd: repo, write: [repo] }, args);

const currentBranch = (jail: GitJailMode, repo: string) =>
  repoGitOrNull({ jail, cwd: repo }, ["symbolic-ref", "--short", "-q", "HEAD"]);

/**
 * Why `branch` of the checkout `repo` may not receive a merge now (null when it may): another
 * branch (or none) is checked out, or tracked files have uncommitted changes. Reads only.
 */
export async function checkoutRefusal(
  jail: GitJailMode,
  repo: string,
  branch: string,
): Promise<Refusal | null> {
  const current = await currentBranch(jail, repo);
  if (current !== branch) return { ok: false, reason: "main_moved", detail: current ?? "HEAD" };
  const dirty = await writing(jail, repo, ["status", "--porcelain", "--untracked-files=no"]);
  return dirty ? { ok: false, reason: "main_dirty", detail: capLines(dirty, 10) } : null;
}

/**
 * Brings `revision` (already in `repo`) into `branch` checked out there: fast-forward when the
 * branch has not moved, else a merge commit with `message`. An already merged revision is a
 * success (a retry after a crash that followed the merge).
 */
export async function mergeIntoCheckout(
  jail: GitJailMode,
  repo: string,
  opts: { branch: string; revision: string; message: string },
): Promise<MergeResult> {
  const { branch, revision, message } = opts;
  const current = await currentBranch(jail, repo);
  if (current !== branch) return { ok: false, reason: "main_moved", detail: current ?? "HEAD" };
  const head = await writing(jail, repo, ["rev-parse", "HEAD"]);
  // Checked before "dirty": a retry after a crash that followed a successful merge is a success.
  if ((await writing(jail, repo, ["merge-base", revision, head])) === revision)
    return { ok: true, revision: head, how: "already-merged" };
  const refused = await checkoutRefusal(jail, repo, branch);
  if (refused) return refused;
  const fastForward = (await writing(jail, repo, ["merge-base", head, revision])) === head;
  try {
    if (fastForward) await writing(jail, repo, ["merge", "--ff-only", "-q", revision]);
    else
      await writing(jail, repo, [
        "merge",
        "--no-ff",
        "--no-verify",
        "--no-edit",
        "-q",
        "-m",
        message,
        revision,
      ]);
  } catch (err) {
    return abortedMerge(jail, repo, err);
  }
  return {
    ok: true,
    revision: await writing(jail, repo, ["rev-parse", "HEAD"]),
    how: fastForward ? "fast-forward" : "merge-commit",
  };
}

/** A failed merge undone (the checkout as it was), naming the files that conflicted. */
async function abortedMerge(jail: GitJailMode, repo: string, err: unknown): Promise<Refusal> {
  const unmerged = await repoGitOrNull({ jail, cwd: repo }, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  await writing(jail, repo, ["merge", "--abort"]).catch(() => undefined);
  const files = (unmerged ?? "").split("\0").filter(Boolean);
  return { ok: false, reason: "conflict", detail: capText((err as Error).message, 2000), files };
}

/** The first `max` lines, and how many more there are (a list of files people read, not data). */
function capLines(text: string, max: number): string {
  const lines = text.split("\n");
  return lines.length <= max ? text : `${lines.slice(0, max).join("\n")}\n[… +${lines.length - max}]`;
}
