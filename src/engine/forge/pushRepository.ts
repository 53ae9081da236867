import fs from "node:fs";
import path from "node:path";
import { type GitJailMode, repoGit } from "../isolation/index.js";

// Issue 31, item 2: no network git command runs with configuration an agent wrote. A lane's
// `.git/config` is its agent's to write (a full-access agent writes it at will): keys such as
// `http.curloptResolve`, `http.sslCAInfo` or `url.<x>.insteadOf` would send git, and the token the
// askpass helper hands it, to a server of the agent's. So a push never runs in the repository that
// holds the branch: the branch is first brought, as objects only and without network, into a bare
// repository codexpi makes for this one push under its data directory (git's own configuration,
// nothing else), and the push runs from there. The repository holding the branch is only read,
// by a local fetch in a jail without network or secret.

/** Where the push repositories live: under the data directory, which no agent's jail shows. */
const pushRoot = (dataDir: string): string => path.join(dataDir, "push");

/** What the push repository is made from. */
export interface PushSource {
  dataDir: string;
  jail: GitJailMode;
  /** The repository holding the branch (a lane's clone): only read, never configuration taken from. */
  repoPath: string;
  branch: string;
  /**
   * Object stores codexpi vouches for (the project's `.git/objects`): the push repository borrows
   * them (its alternates, written by codexpi), so only the branch's own objects are copied.
   */
  objects: readonly string[];
  timeoutMs?: number;
}

/**
 * Makes a bare repository of codexpi's own holding `refs/heads/<branch>` of `source.repoPath`,
 * runs `use` with its path, and removes it whatever happens. Throws when git cannot bring the
 * branch (the caller reports it).
 */
export async function withPushRepository<T>(
  source: PushSource,
  use: (repo: string, objects: string[]) => Promise<T>,
): Promise<T> {
  const root = pushRoot(source.dataDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  const repo = fs.mkdtempSync(path.join(root, "repo-"));
  const objects = source.objects.filter((d) => fs.existsSync(d)).map((d) => fs.realpathSync(d));
  const timeoutMs = source.timeoutMs ?? 300_000;
  try {
    // `fresh`: the directory was made a moment ago, and only codexpi's git writes it from now on.
    await repoGit({ jail: source.jail, cwd: repo, write: [repo], fresh: true, timeoutMs }, [
      "init",
      "-q",
      "--bare",
      "--",
      repo,
    ]);
    if (objects.length)
      fs.writeFileSync(path.join(repo, "objects", "info", "alternates"), `${objects.join("\n")}\n`, {
        mode: 0o600,
      });
    const ref = `refs/heads/${source.branch}`;
    // The repository holding the branch and the stores it borrows, read-only, no network: its
    // git-upload-pack hands over objects, nothing of its configuration reaches the push repository.
    await repoGit(
      {
        jail: source.jail,
        cwd: repo,
        write: [repo],
        read: [source.repoPath, ...objects],
        fresh: true,
        timeoutMs,
      },
      [
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--upload-pack=git-upload-pack",
        "--",
        fs.realpathSync(source.repoPath),
        `+${ref}:${ref}`,
      ],
    );
    return await use(repo, objects);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}
