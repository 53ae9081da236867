import { EngineError } from "../errors.js";
import { type GitJailMode, repoGitOrNull } from "../isolation/index.js";
import type { Project } from "../schema.js";
import { readForgeToken } from "./credentials.js";
import { type PullRequest, openPullRequest, pullRequestState } from "./pullRequests.js";
import { type PushRequest, type PushResult, pushBranch } from "./push.js";
import { type BranchFetch, FORK_BRANCH_PREFIX, fetchBranchInto, fetchPullRefInto } from "./fetchBranch.js";
import { type DerivedForge, type ForgeKind, remoteTransport } from "./remoteUrl.js";
import { projectForge } from "./settings.js";

// A project's push and pull requests, its settings and stored token applied: what the
// what-changed card's buttons run once the engine has checked who clicked.

/** Where codexpi keeps its files, and how it runs git. */
export interface ForgeHost {
  dataDir: string;
  jail: GitJailMode;
}

/** The user name sent with a token over https: what each forge documents for token pushes. */
const TOKEN_USER: Record<ForgeKind, string> = { github: "x-access-token", gitlab: "oauth2" };

/** The project's remote URL, read from its checkout (its `remote`, `origin` by default). */
export async function projectRemoteUrl(project: Project, host: ForgeHost): Promise<string | null> {
  return repoGitOrNull({ jail: host.jail, cwd: project.path }, [
    "remote",
    "get-url",
    "--push",
    "--",
    project.remote,
  ]);
}

/**
 * The forge's own https clone URL of the project's repository, from its settings: GitHub's
 * api.github.com serves github.com; an Enterprise or self-hosted API (`…/api/v3`, `…/api/v4`)
 * serves clones at its host and path prefix. Null for a GitLab numeric id (it names no path).
 */
export function forgeCloneUrl(forge: DerivedForge): string | null {
  if (!/^[A-Za-z0-9_.][A-Za-z0-9_./-]*$/.test(forge.forgeRepo) || /^\d+$/.test(forge.forgeRepo)) return null;
  let api: URL;
  try {
    api = new URL(forge.forgeUrl);
  } catch {
    return null;
  }
  const prefix =
    api.hostname === "api.github.com"
      ? "https://github.com"
      : `${api.protocol}//${api.host}${api.pathname.replace(/\/+$/, "").replace(/\/api\/v[34]$/, "")}`;
  return `${prefix}/${forge.forgeRepo}.git`;
}

/**
 * Where the project's branches are pushed: the URL its checkout names for its remote; else, when
 * an admin named the forge's repository and a token is stored, the forge's own clone URL; else
 * null. `fromForge` says which (the card and the lane then name the repository, not a remote).
 */
async function projectPushTarget(
  project: Project,
  host: ForgeHost,
): Promise<{ url: string; fromForge: boolean; shown: string } | null> {
  const remote = await projectRemoteUrl(project, host);
  if (remote !== null) return { url: remote, fromForge: false, shown: project.remote };
  const forge = projectForge(project, null);
  const url = forge ? forgeCloneUrl(forge) : null;
  if (!forge || !url || !readForgeToken(host.dataDir, project.name)) return null;
  return { url, fromForge: true, shown: forge.forgeRepo };
}

/**
 * Pushes `branch` of `repoPath` (a lane's clone, or the project's checkout) to the project's
 * remote, as the project's checkout names it (a lane's own configuration never chooses), or when
 * it names none to the forge's clone URL (projectPushTarget), with the project's token (else the
 * install's) when one is stored and the URL is on the forge's host.
 */
export async function pushProjectBranch(
  project: Project,
  branch: { repoPath: string; branch: string; destination?: string; objects?: readonly string[] },
  host: ForgeHost,
): Promise<PushResult & { forgeRepo?: string }> {
  const target = await projectPushTarget(project, host);
  const pushed = await pushBranch({ ...branch, ...(await projectRemote(project, host, target)) });
  // Pushed to the forge's repository, not to a remote: the lane names the repository.
  return target?.fromForge ? { ...pushed, forgeRepo: target.shown } : pushed;
}

/** The remote, URL and credential a project's pushes and fetches use (pushProjectBranch). */
async function projectRemote(
  project: Project,
  host: ForgeHost,
  target: Awaited<ReturnType<typeof projectPushTarget>>,
): Promise<Omit<PushRequest, "repoPath" | "branch">> {
  const url = target?.url ?? null;
  const forge = projectForge(project, target?.fromForge ? null : url);
  const stored =
    forge && url && onForgeHost(url, forge.forgeUrl) ? readForgeToken(host.dataDir, project.name) : null;
  return {
    ...(target?.fromForge ? { url: target.url } : {}),
    remote: project.remote,
    remoteFrom: project.path,
    credential: stored && forge ? { token: stored.token, username: TOKEN_USER[forge.forge] } : null,
    dataDir: host.dataDir,
    jail: host.jail,
  };
}

/**
 * Brings `branch` from the project's remote into its checkout (a pull request's head a lane starts
 * from), the way pushProjectBranch pushes: codexpi's own repository, remote and token.
 */
export async function fetchProjectBranch(
  project: Project,
  branch: string,
  host: ForgeHost,
): Promise<BranchFetch> {
  const target = await projectPushTarget(project, host);
  return fetchBranchInto({ repoPath: project.path, branch, ...(await projectRemote(project, host, target)) });
}

/**
 * Brings pull (merge) request `number`'s head from the base repository's own ref of it into the
 * checkout's branch `codexpi-fork/pr-N` (GitHub's `refs/pull/N/head`) or `codexpi-fork/mr-N`
 * (GitLab's `refs/merge-requests/N/head`): how a lane starts from a fork's pull request, whose
 * branch lives in a repository codexpi neither reads nor pushes to. Answers the local branch.
 */
export async function fetchProjectPullRequest(
  project: Project,
  number: number,
  host: ForgeHost,
): Promise<string> {
  const forge = projectForge(project, await projectRemoteUrl(project, host));
  if (!forge) throw new EngineError("invalid", "forge_not_configured", { name: project.name });
  const [remoteRef, local] =
    forge.forge === "github"
      ? [`refs/pull/${number}/head`, `${FORK_BRANCH_PREFIX}pr-${number}`]
      : [`refs/merge-requests/${number}/head`, `${FORK_BRANCH_PREFIX}mr-${number}`];
  const target = await projectPushTarget(project, host);
  await fetchPullRefInto(
    { repoPath: project.path, branch: local, ...(await projectRemote(project, host, target)) },
    remoteRef,
    local,
  );
  return local;
}

/**
 * Whether a remote lies on the forge's own host (GitHub's API host api.github.com serves
 * github.com): the only host a forge token is handed to. A checkout's remote may have been
 * rewritten by an agent (a direct-mode project's checkout is its workspace): a remote elsewhere
 * is pushed to without the token.
 */
function onForgeHost(remoteUrl: string, forgeUrl: string): boolean {
  const t = remoteTransport(remoteUrl);
  if (!t || (t.kind !== "http" && t.kind !== "https")) return false;
  let api: string;
  try {
    api = new URL(forgeUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return t.host === (api === "api.github.com" ? "github.com" : api);
}

/** The project's forge and token; `forge_not_configured` or `forge_token_missing` otherwise. */
async function target(project: Project, host: ForgeHost) {
  const forge = projectForge(project, await projectRemoteUrl(project, host));
  if (!forge) throw new EngineError("invalid", "forge_not_configured", { name: project.name });
  const stored = readForgeToken(host.dataDir, project.name);
  if (!stored) throw new EngineError("invalid", "forge_token_missing", { name: project.name });
  return { ...forge, token: stored.token };
}

/** Opens (or finds, when one is open for the branch) the pull request of `head` into `base`. */
export async function openProjectPullRequest(
  project: Project,
  request: { head: string; base: string; title: string; body: string },
  host: ForgeHost,
): Promise<PullRequest> {
  return openPullRequest({ ...(await target(project, host)), ...request });
}

/** A project's pull request's state and link, read back from its forge. */
export async function projectPullRequestState(project: Project, number: number, host: ForgeHost) {
  return pullRequestState(await target(project, host), number);
}

/** The forge a project's pull requests live on, with its token (the forge front end's replies). */
export const projectForgeTarget = target;
