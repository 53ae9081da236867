import { EngineError } from "../errors.js";
import type { Project } from "../schema.js";
import { readForgeToken } from "./credentials.js";
import { type ForgeHost, forgeCloneUrl, projectRemoteUrl } from "./projectForge.js";
import { type DerivedForge, type ForgeKind, remoteTransport } from "./remoteUrl.js";
import { projectForge } from "./settings.js";

// Issue 32, item 6: the lane card offers only what can work. What a project's lanes can do with
// their branch beyond a merge — push it, open its pull request — read from the same places the
// push and the pull request read (the checkout's remote, the forge settings completed from it, the
// stored token), so that a button shown works and a button hidden would not have. Checked again
// when a button is pressed: a card drawn before the settings changed may still show one.

/** What stops a lane's branch from leaving: the first missing piece, or null when nothing does. */
export type PublishingGap = "remote" | "forge" | "token" | null;

/** Whether a project's lanes can push and open pull requests, and what is missing otherwise. */
export interface Publishing {
  /**
   * The checkout names the project's remote with a transport codexpi pushes to; or it names none,
   * and an admin named the forge's repository and a token is stored (the push goes to the forge's
   * clone URL).
   */
  push: boolean;
  /** Push works, a forge and repository are known, and a token is stored (the project's or the install's). */
  pullRequest: boolean;
  gap: PublishingGap;
  /** The remote's name the push uses (the project's `remote`, `origin` by default). */
  remote: string;
}

/** A project's forge settings as an admin reads them: set, derived, and whether a token is stored. */
export interface ForgeView {
  name: string;
  /** The remote's name (default `origin`). */
  remote: string;
  /** Its push URL as the checkout names it, without user or password; null: no such remote. */
  remoteUrl: string | null;
  /** What an admin set (null: derived from the remote's URL, or none). */
  set: { forge: ForgeKind | null; forgeUrl: string | null; forgeRepo: string | null };
  /** What pull requests use: the settings completed from the remote's URL; null: no forge known. */
  effective: DerivedForge | null;
  /** Which token is stored (never the token): the project's own, the install's, or none. */
  token: "project" | "install" | null;
  publishing: Publishing;
}

/** A URL as shown to people: no user, no password. */
const shownUrl = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, "$1");

function publishingOf(project: Project, remoteUrl: string | null, host: ForgeHost) {
  const effective = projectForge(project, remoteUrl);
  const token = readForgeToken(host.dataDir, project.name)?.scope ?? null;
  // Without a remote, the forge's repository as an admin named it gives the URL (with a token).
  const set = remoteUrl === null ? projectForge(project, null) : null;
  const forgeUrl = set ? forgeCloneUrl(set) : null;
  const push = remoteUrl !== null ? remoteTransport(remoteUrl) !== null : forgeUrl !== null && token !== null;
  const gap: PublishingGap = !push
    ? forgeUrl !== null
      ? "token"
      : "remote"
    : !effective
      ? "forge"
      : !token
        ? "token"
        : null;
  return {
    effective,
    token,
    publishing: { push, pullRequest: gap === null, gap, remote: project.remote },
  };
}

/** Whether the project's lanes can push and open pull requests (a jailed `git remote get-url`). */
export async function projectPublishing(project: Project, host: ForgeHost): Promise<Publishing> {
  return publishingOf(project, await projectRemoteUrl(project, host), host).publishing;
}

/** A project's forge settings, for an admin's `/codex project forge NAME`: never the token. */
export async function projectForgeView(project: Project, host: ForgeHost): Promise<ForgeView> {
  const remoteUrl = await projectRemoteUrl(project, host);
  const { effective, token, publishing } = publishingOf(project, remoteUrl, host);
  return {
    name: project.name,
    remote: project.remote,
    remoteUrl: remoteUrl === null ? null : shownUrl(remoteUrl),
    set: { forge: project.forge, forgeUrl: project.forge_url, forgeRepo: project.forge_repo },
    effective,
    token,
    publishing,
  };
}

/**
 * Refuses, before anything is pushed, what the project cannot do: a push without a remote; a pull
 * request without a remote, a forge or a token. The answer names what is missing and who sets it
 * (a stale card's button, pressed after the settings changed, gets this rather than git's words).
 */
export async function assertCanPublish(
  project: Project,
  host: ForgeHost,
  what: "push" | "pullRequest",
): Promise<void> {
  const p = await projectPublishing(project, host);
  if (p.gap === "remote")
    throw new EngineError("invalid", "lane_no_remote", { name: project.name, remote: project.remote });
  if (!p.push) throw new EngineError("invalid", "forge_token_missing", { name: project.name });
  if (what === "push") return;
  if (p.gap === "forge") throw new EngineError("invalid", "forge_not_configured", { name: project.name });
  if (p.gap === "token") throw new EngineError("invalid", "forge_token_missing", { name: project.name });
}
