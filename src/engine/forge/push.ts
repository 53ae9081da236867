import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { redactText } from "../../redaction.js";
import { EngineError } from "../errors.js";
import { type GitJailMode, type GitRemoteAccess, type RepoGitAccess, repoGit } from "../isolation/index.js";
import { capText } from "../text/index.js";
import { askPassDir, askPassEnvironment, installAskPass } from "./askpass.js";
import { withPushRepository } from "./pushRepository.js";
import { isLoopbackHost, type RemoteTransport, remoteTransport } from "./remoteUrl.js";

/** What a push over http(s) authenticates with: a token (and the user name to give with it). */
export interface PushCredential {
  token: string;
  /** Default `x-access-token` (GitHub's; GitLab accepts any name with a token, e.g. `oauth2`). */
  username?: string;
}

/** One branch to push. */
export interface PushRequest {
  /** The repository holding the branch (a lane's clone or the project's checkout); only read. */
  repoPath: string;
  /** The remote's name (the project's `remote`, `origin` by default). */
  remote: string;
  branch: string;
  /**
   * The remote branch it goes to (default `branch`): a lane's branch pushed to a pull request's
   * head. Never forced: a remote branch that moved on is a `forge_push_rejected`.
   */
  destination?: string;
  /** The token for an http(s) remote; null for a local or ssh remote (or a public one). */
  credential: PushCredential | null;
  /**
   * The URL to push to when the project's checkout names no remote: the forge's own clone URL,
   * made by codexpi from the forge settings an admin set (never from a repository's configuration).
   */
  url?: string;
  /**
   * The repository whose configuration names the remote's URL (default `repoPath`). A lane's
   * clone is written by its agent: pass the project's checkout here, so that the agent cannot
   * choose where the branch (and the token) goes.
   */
  remoteFrom?: string;
  /** codexpi's data directory: the askpass program lives there (never inside a repository). */
  dataDir: string;
  jail: GitJailMode;
  /**
   * Object stores the repository borrows that codexpi vouches for (a lane: the project's own
   * `.git/objects`), shown read-only; never the stores a repository's alternates file lists.
   */
  objects?: readonly string[];
  /** The operator's ssh directory for an ssh remote (default ~/.ssh), shown read-only. */
  sshDir?: string;
  timeoutMs?: number;
}

/** Where the branch went: the remote's URL without any user or password. */
export interface PushResult {
  remoteUrl: string;
  branch: string;
  /** The remote branch already held the commit: nothing was sent. */
  upToDate: boolean;
}

const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether a branch name is one codexpi pushes (git's rules, and never an option or a refspec). */
export function isPushableBranch(name: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(name) && !/\.\.|\/\/|\/\.|@\{|\.lock(?:\/|$)|[./]$/.test(name)
  );
}

/** A URL as shown to people: no user, no password. */
function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, "$1");
}

/** Git's message with the token, and anything else the redactor knows, removed. */
export function scrubbed(text: string, token: string | undefined): string {
  const plain = token ? text.split(token).join("[redacted]") : text;
  return capText(redactText(plain), 1500);
}

/** The remote's push URL, as the configuration of `from` names it (insteadOf rules applied). */
export async function pushUrl(req: PushRequest): Promise<string> {
  if (req.url !== undefined) return req.url;
  const from = req.remoteFrom ?? req.repoPath;
  const access: RepoGitAccess = { jail: req.jail, cwd: from, timeoutMs: req.timeoutMs };
  try {
    return await repoGit(access, ["remote", "get-url", "--push", "--", req.remote]);
  } catch {
    throw new EngineError("not_found", "forge_remote_missing", { remote: req.remote });
  }
}

/** A local remote's directory (a bare repository on disk), resolved from `from`. */
function localDirectory(url: string, from: string): string {
  const p = url.replace(/^file:\/\//i, "");
  return path.resolve(from, p);
}

/** What the push's jail may use to reach the remote, and which directory it writes (local). */
export function remoteAccess(
  req: PushRequest,
  url: string,
  transport: RemoteTransport,
): { remote: GitRemoteAccess; write: string[] } {
  if (transport.kind === "file") {
    const dir = localDirectory(url, req.remoteFrom ?? req.repoPath);
    if (!fs.existsSync(dir))
      throw new EngineError("not_found", "forge_remote_missing", { remote: req.remote });
    return { remote: { protocols: [] }, write: [dir] };
  }
  if (transport.kind === "ssh") {
    const sshDir = req.sshDir ?? path.join(os.homedir(), ".ssh");
    return { remote: { protocols: ["ssh"], read: fs.existsSync(sshDir) ? [sshDir] : [] }, write: [] };
  }
  // A token over plain http crosses the network readable: only this machine's loopback may.
  if (transport.kind === "http" && !isLoopbackHost(transport.host))
    throw new EngineError("invalid", "forge_remote_insecure", { host: transport.host });
  const protocols = [transport.kind];
  if (!req.credential || transport.password) return { remote: { protocols }, write: [] };
  const program = installAskPass(req.dataDir);
  const env = askPassEnvironment(transport, req.credential.username ?? "x-access-token");
  return {
    remote: {
      protocols,
      read: [askPassDir(req.dataDir)],
      askPass: { program, env },
      secret: { value: req.credential.token, spillDir: path.join(askPassDir(req.dataDir), "spill") },
    },
    write: [],
  };
}

/**
 * Pushes `branch` to the remote (`git push <url> refs/heads/B:refs/heads/B`) from a bare
 * repository codexpi makes for this push (pushRepository.ts: the branch's objects only, none of
 * `repoPath`'s configuration), through repoGit: jailed with the network, hooks and command-running
 * configuration disarmed, the URL on the command line, the token handed by codexpi's askpass (see
 * askpass.ts). `repoPath` is only read, without network. Errors are EngineErrors whose text passed
 * the redactor and never holds the token.
 */
export async function pushBranch(req: PushRequest): Promise<PushResult> {
  if (!REMOTE_NAME.test(req.remote))
    throw new EngineError("invalid", "forge_remote_invalid", { value: req.remote });
  const destination = req.destination ?? req.branch;
  for (const name of [req.branch, destination])
    if (!isPushableBranch(name)) throw new EngineError("invalid", "forge_branch_invalid", { branch: name });
  const url = await pushUrl(req);
  const transport = remoteTransport(url);
  if (!transport) throw new EngineError("invalid", "forge_remote_unsupported", { remote: req.remote });
  const { remote, write } = remoteAccess(req, url, transport);
  const target = transport.kind === "file" ? write[0]! : url;
  const ref = `refs/heads/${req.branch}`;
  const source = { ...req, objects: req.objects ?? [] };
  let out: string;
  try {
    out = await withPushRepository(source, (owned, objects) =>
      repoGit(
        { jail: req.jail, cwd: owned, read: objects, write, remote, timeoutMs: req.timeoutMs ?? 300_000 },
        // No `+` and no `--force`: a remote branch that moved on is refused by git, never rewritten.
        ["push", "--no-verify", "--porcelain", "--", target, `${ref}:refs/heads/${destination}`],
      ),
    );
  } catch (e) {
    const detail = scrubbed(e instanceof Error ? e.message : String(e), req.credential?.token);
    if (/\[rejected\]|non-fast-forward|fetch first|Updates were rejected/.test(detail))
      throw new EngineError("conflict", "forge_push_rejected", { remote: req.remote, branch: destination });
    throw new EngineError("unavailable", "forge_push_failed", { remote: req.remote, detail });
  }
  // `--porcelain`: a line `=<TAB>src:dst<TAB>[up to date]` when the remote already had it.
  const upToDate = out.split("\n").some((l) => l.startsWith("=\t"));
  return { remoteUrl: shownUrl(url), branch: req.branch, upToDate };
}
