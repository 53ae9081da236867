import fs from "node:fs";
import path from "node:path";
import { git, isolateGit } from "../engine/orchestrations/repo.js";
import { type GitHttpServer, startGitHttpServer } from "../support/gitHttpServer.js";

// The forge's side of git for the forge stories (issue 33's "Done when"): the repository lives in a
// bare repository served over git smart HTTP (git's own http-backend), as the forge serves clones —
// HTTP Basic with the forge's token user (GitHub `x-access-token`, GitLab `oauth2`) and the
// project's token, nothing else. The project's checkout names it as `origin`, as a clone of the
// forge's repository would: every fetch and push codexpi makes goes over HTTP with its token.

/** A repository served over HTTP, and what a test reads of it. */
export interface ServedRepo {
  server: GitHttpServer;
  /** The bare repository on disk (what the forge holds). */
  bare: string;
  /** The commit a branch points at on the forge, or null when there is no such branch. */
  head(branch: string): Promise<string | null>;
  /** A file at a revision on the forge. */
  show(revision: string, file: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Makes `checkout` a repository on `main` (app.txt) with a branch `rename` one commit ahead, puts
 * both on a bare `repo.git` served over HTTP to `user`:`token`, and names it `origin` in the checkout.
 */
export async function servedRepo(
  checkout: string,
  opts: { repo: string; user: string; token: string },
): Promise<ServedRepo> {
  isolateGit();
  const root = path.join(path.dirname(checkout), `served-${path.basename(checkout)}`);
  const bare = path.join(root, `${opts.repo}.git`);
  fs.mkdirSync(path.dirname(bare), { recursive: true });
  await git(root, "init", "-q", "--bare", "-b", "main", bare);
  await git(checkout, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(checkout, "app.txt"), "base\n");
  await git(checkout, "add", "app.txt");
  await git(checkout, "commit", "-q", "-m", "Base");
  await git(checkout, "checkout", "-q", "-b", "rename");
  fs.writeFileSync(path.join(checkout, "app.txt"), "renamed\n");
  await git(checkout, "commit", "-q", "-am", "Rename");
  await git(checkout, "checkout", "-q", "main");
  await git(checkout, "push", "-q", bare, "main", "rename");
  const server = await startGitHttpServer({ root, user: opts.user, token: opts.token });
  await git(checkout, "remote", "add", "origin", `${server.url}/${opts.repo}.git`);
  return {
    server,
    bare,
    head: (branch) => git(bare, "rev-parse", "--verify", "-q", `refs/heads/${branch}`).catch(() => null),
    show: (revision, file) => git(bare, "show", `${revision}:${file}`),
    close: () => server.close(),
  };
}
