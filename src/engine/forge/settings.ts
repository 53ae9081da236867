import type { Database } from "../database.js";
import { EngineError } from "../errors.js";
import { type Actor, assertAdmin, getProject, projectForActor } from "../projects/index.js";
import type { Project } from "../schema.js";
import {
  type DerivedForge,
  type ForgeKind,
  forgeFromRemote,
  isLoopbackHost,
  remoteTransport,
} from "./remoteUrl.js";

/** What an admin may change of a project's forge settings; absent fields stay, null clears. */
export interface ForgeSettings {
  remote?: string;
  forge?: ForgeKind | null;
  forgeUrl?: string | null;
  forgeRepo?: string | null;
}

const FORGES: readonly ForgeKind[] = ["github", "gitlab"];
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const SEGMENT = "[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}";
const GITHUB_REPO = new RegExp(`^${SEGMENT}/${SEGMENT}$`);
const GITLAB_REPO = new RegExp(`^(?:\\d+|${SEGMENT}(?:/${SEGMENT}){1,20})$`);
/** The API of each forge's public service, when a project names the forge and no URL. */
const PUBLIC_API: Record<ForgeKind, string> = {
  github: "https://api.github.com",
  gitlab: "https://gitlab.com/api/v4",
};

/**
 * Whether `url` is an API base URL of `forge`: https (plain http only on this machine's loopback,
 * for a local proxy or a test), no user, query or fragment; GitHub's is api.github.com or ends
 * with /api/v3 (Enterprise), GitLab's ends with /api/v4.
 */
function validForgeUrl(forge: ForgeKind | null, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password || u.search || u.hash) return false;
  if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopbackHost(u.hostname))) return false;
  const p = u.pathname.replace(/\/+$/, "");
  if (forge === "gitlab") return p.endsWith("/api/v4");
  if (forge === "github") return (u.hostname === "api.github.com" && p === "") || p.endsWith("/api/v3");
  return true;
}

function validRepo(forge: ForgeKind | null, repo: string): boolean {
  if (/(^|\/)\.\.?(\/|$)/.test(repo)) return false;
  return forge === "github" ? GITHUB_REPO.test(repo) : GITLAB_REPO.test(repo);
}

/** The project's forge columns after `changes`, each checked against the others; throws `invalid`. */
function checkedForgeSettings(project: Project, changes: ForgeSettings) {
  const next = {
    remote: changes.remote ?? project.remote,
    forge: changes.forge !== undefined ? changes.forge : project.forge,
    forge_url:
      changes.forgeUrl !== undefined ? changes.forgeUrl?.replace(/\/+$/, "") || null : project.forge_url,
    forge_repo: changes.forgeRepo !== undefined ? changes.forgeRepo?.trim() || null : project.forge_repo,
  };
  if (!REMOTE_NAME.test(next.remote))
    throw new EngineError("invalid", "forge_remote_invalid", { value: next.remote });
  if (next.forge !== null && !FORGES.includes(next.forge))
    throw new EngineError("invalid", "forge_kind_invalid", { value: String(next.forge) });
  if (next.forge_url !== null && !validForgeUrl(next.forge, next.forge_url))
    throw new EngineError("invalid", "forge_url_invalid", { value: next.forge_url });
  if (next.forge_repo !== null && !validRepo(next.forge, next.forge_repo))
    throw new EngineError("invalid", "forge_repo_invalid", { value: next.forge_repo });
  return next;
}

/** Sets where a project's branches are pushed and its pull requests opened (admins only). */
export async function setForge(
  db: Database,
  actor: Actor,
  name: string,
  changes: ForgeSettings,
): Promise<Project> {
  assertAdmin(actor);
  const project = await projectForActor(db, actor, name);
  const next = checkedForgeSettings(project, changes);
  await db.updateTable("projects").set(next).where("id", "=", project.id).execute();
  return getProject(db, project.id);
}

/** The repository path a remote URL names when it is on the forge's own host (Enterprise, self-hosted). */
function repoOnHost(remoteUrl: string, forgeUrl: string): string | null {
  const t = remoteTransport(remoteUrl);
  if (!t || t.kind === "file") return null;
  let host: string;
  try {
    host = new URL(forgeUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (t.host !== host) return null;
  const repo = t.path.replace(/^\/+|\/+$/g, "").replace(/\.git$/i, "");
  return repo.includes("/") ? repo : null;
}

/**
 * Where a project's pull requests go: its settings, completed from its remote's URL (github.com
 * and gitlab.com, or the repository path on the forge's own host); null when no forge or no
 * repository can be told.
 */
export function projectForge(project: Project, remoteUrl: string | null): DerivedForge | null {
  const derived = remoteUrl ? forgeFromRemote(remoteUrl) : null;
  const forge = project.forge ?? derived?.forge ?? null;
  if (!forge) return null;
  const same = derived?.forge === forge ? derived : null;
  const forgeUrl = project.forge_url ?? same?.forgeUrl ?? PUBLIC_API[forge];
  const forgeRepo =
    project.forge_repo ?? same?.forgeRepo ?? (remoteUrl ? repoOnHost(remoteUrl, forgeUrl) : null);
  return forgeRepo ? { forge, forgeUrl, forgeRepo } : null;
}
