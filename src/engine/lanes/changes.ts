import type { GitJailMode } from "../isolation/index.js";
import { readClone } from "../workspaces/index.js";

// What changed in a lane (a conversation's sealed clone on its own branch): the commits its branch
// has beyond its base, the files they change with their added and removed lines, and the diff —
// what the card after each turn shows. Read with git in the clone's jail (seal checked), so nothing
// an agent planted in the clone's `.git` runs; every list is bounded and says where it was cut.

/** How much of a lane's changes is listed (a card is read by people; the file upload is capped too). */
export interface ChangeLimits {
  commits: number;
  files: number;
  /** The diff's cap in bytes (UTF-8); a longer diff is cut at a line and `diffTruncated` set. */
  diffBytes: number;
}

const DEFAULT_CHANGE_LIMITS: ChangeLimits = { commits: 50, files: 100, diffBytes: 1_000_000 };

/** One file changed: lines added and removed (0 and 0 for a binary file, which has no lines). */
export interface LaneFileChange {
  path: string;
  added: number;
  removed: number;
  binary: boolean;
}

/** What a lane changed since its base. */
export interface LaneChanges {
  /** The lane's branch (null when the clone's HEAD is detached). */
  branch: string | null;
  /** The revision the changes are counted from: where the lane's branch left its base. */
  base: string;
  /** The lane's HEAD. */
  head: string;
  /** The newest commits first, at most `limits.commits`; `totalCommits` counts them all. */
  commits: Array<{ sha: string; subject: string }>;
  totalCommits: number;
  /** At most `limits.files`, in path order; `totalFiles` counts them all, the sums cover them all. */
  files: LaneFileChange[];
  totalFiles: number;
  added: number;
  removed: number;
  /** The unified diff, at most `limits.diffBytes` bytes; `diffBytes` is its whole size. */
  diff: string;
  diffBytes: number;
  diffTruncated: boolean;
}

/**
 * What the lane in the sealed clone `clone` changed since `base` (a revision or a ref the clone
 * has: the revision it was made at, or its base branch fetched by `updateLaneBase`). Counted from
 * the merge base, so a base merged into the lane does not read as the lane's own work.
 */
export async function laneChanges(
  jail: GitJailMode,
  clone: string,
  base: string,
  limits: ChangeLimits = DEFAULT_CHANGE_LIMITS,
): Promise<LaneChanges> {
  const git = (args: string[]) => readClone(jail, clone, args);
  const branch = await git(["symbolic-ref", "--short", "-q", "HEAD"]).catch(() => null);
  const head = await git(["rev-parse", "--verify", "HEAD^{commit}"]);
  // An argument, never an option: a base named `--output=…` would otherwise make git write.
  if (base.startsWith("-")) throw new Error(`not a revision: ${base}`);
  const from = await git(["merge-base", `${base}^{commit}`, head]);
  const range = `${from}..${head}`;
  const totalCommits = Number(await git(["rev-list", "--count", range, "--"]));
  const log = await git([
    "log",
    "--no-color",
    `--max-count=${limits.commits}`,
    "--format=%H%x09%s",
    range,
    "--",
  ]);
  const files = parseNumstat(await git([...DIFF, "--numstat", "-z", from, head, "--"]));
  const diff = await git([...DIFF, "--patch", from, head, "--"]);
  const cut = cutAtLine(diff, limits.diffBytes);
  return {
    branch,
    base: from,
    head,
    commits: parseLog(log),
    totalCommits,
    files: files.slice(0, limits.files),
    totalFiles: files.length,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
    diff: cut,
    diffBytes: Buffer.byteLength(diff),
    diffTruncated: cut.length < diff.length,
  };
}

/** A diff as people read it: no colour, no external or text-converting program, renames as delete and add. */
const DIFF = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames"];

/** `git log --format=%H%x09%s`: one commit a line (a subject never holds a newline). */
function parseLog(out: string): Array<{ sha: string; subject: string }> {
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      return { sha: line.slice(0, tab), subject: line.slice(tab + 1) };
    });
}

/** `git diff --numstat -z` without renames: `added<TAB>removed<TAB>path<NUL>`, `-` for binary. */
function parseNumstat(out: string): LaneFileChange[] {
  return out
    .split("\0")
    .filter(Boolean)
    .map((record) => {
      const [added = "", removed = "", ...rest] = record.replace(/^\n/, "").split("\t");
      const binary = added === "-" && removed === "-";
      return {
        path: rest.join("\t"),
        added: binary ? 0 : Number(added),
        removed: binary ? 0 : Number(removed),
        binary,
      };
    });
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, at the end of a line when there is one. */
function cutAtLine(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  // Decoding a cut buffer may end in half a character: it is dropped with the partial line.
  const head = Buffer.from(text).subarray(0, maxBytes).toString("utf8");
  const lastLine = head.lastIndexOf("\n");
  return lastLine > 0 ? head.slice(0, lastLine + 1) : head.replace(/\uFFFD$/, "");
}
