import { EngineError } from "../errors.js";
import { type GitJailMode, repoGitOrNull } from "../isolation/index.js";
import type { Project } from "../schema.js";
import { readForgeToken } from "./credentials.js";
import { type PullRequest, openPullRequest, pullRequestState } from "./pullRequests.js";
import { type PushResult, pushBranch } from "./push.js";
import { type ForgeKind, remoteTransport } from "./remoteUrl.js";
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
async function projectRemoteUrl(project: Project, host: ForgeHost): Promise<string | null> {
  return repoGitOrNull({ jail: host.jail, cwd: project.path }, [
    "remote",
    "get-url",
    "--push",
    "--",
    project.remote,
  ]);
}

/**
 * Pushes `branch` of `repoPath` (a lane's clone, or the project's checkout) to the project's
 * remote, as the project's checkout names it (a lane's own configuration never chooses), with the
 * project's token (else the install's) when one is stored and the remote is on the forge's host.
 */
export async function pushProjectBranch(
  project: Project,
  branch: { repoPath: string; branch: string; objects?: readonly string[] },
  host: ForgeHost,
): Promise<PushResult> {
  const url = await projectRemoteUrl(project, host);
  const forge = url ? projectForge(project, url) : null;
  const stored =
    forge && url && onForgeHost(url, forge.forgeUrl) ? readForgeToken(host.dataDir, project.name) : null;
  return pushBranch({
    ...branch,
    remote: project.remote,
    remoteFrom: project.path,
    credential: stored && forge ? { token: stored.token, username: TOKEN_USER[forge.forge] } : null,
    dataDir: host.dataDir,
    jail: host.jail,
  });
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
