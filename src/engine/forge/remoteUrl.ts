/** The forges codexpi opens pull (merge) requests on. */
export type ForgeKind = "github" | "gitlab";

/** How git reaches a remote, read from its URL (no network involved). */
export type RemoteTransport =
  | { kind: "file" }
  | {
      kind: "http" | "https";
      /** `scheme://host[:port]`, exactly as git names it in its prompts. */
      origin: string;
      host: string;
      /** The user the URL names, if any (git then asks only for the password). */
      user: string | null;
      /** Whether the URL carries a password of its own (git then asks nothing). */
      password: boolean;
      path: string;
    }
  | { kind: "ssh"; host: string; path: string };

const HTTP_URL = /^(https?):\/\/(?:([^@/?#]*)@)?([^/?#]+)([^?#]*)/i;
const SSH_URL = /^ssh:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.*)$/i;
// scp-like `user@host:path` (no scheme, a colon before any slash, a host of more than one letter,
// which tells it from a Windows drive; `helper::address` is a remote helper, refused).
const SCP_LIKE = /^(?:[^@/:]+@)?([^/:]{2,}):(?!\/\/|:)(.+)$/;

/** The transport of a git remote URL; null for one codexpi does not push to (ext::, git://…). */
export function remoteTransport(url: string): RemoteTransport | null {
  const u = url.trim();
  if (u.startsWith("/") || /^file:\/\//i.test(u)) return { kind: "file" };
  const http = HTTP_URL.exec(u);
  if (http) {
    const [, scheme, userinfo, host, path] = http as unknown as [
      string,
      string,
      string | undefined,
      string,
      string,
    ];
    const [user, password] = userinfo === undefined ? [null, false] : splitUserinfo(userinfo);
    const kind = scheme.toLowerCase() as "http" | "https";
    return { kind, origin: `${kind}://${host}`, host: hostName(host), user, password, path };
  }
  const ssh = SSH_URL.exec(u) ?? (u.includes("://") ? null : SCP_LIKE.exec(u));
  if (ssh) return { kind: "ssh", host: ssh[1]!.toLowerCase(), path: ssh[2]! };
  return null;
}

function splitUserinfo(userinfo: string): [string, boolean] {
  const colon = userinfo.indexOf(":");
  return colon < 0 ? [userinfo, false] : [userinfo.slice(0, colon), true];
}

/** A host without its port, lower-case (`[::1]:8080` → `[::1]`). */
function hostName(hostPort: string): string {
  const h = hostPort.toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

/** Whether a host is this machine's loopback (plain http is accepted only there). */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** A forge and repository read from a remote URL. */
export interface DerivedForge {
  forge: ForgeKind;
  /** The API's base URL. */
  forgeUrl: string;
  /** `owner/name` (GitHub) or `group/sub/name` (GitLab). */
  forgeRepo: string;
}

const KNOWN: Record<string, { forge: ForgeKind; forgeUrl: string }> = {
  "github.com": { forge: "github", forgeUrl: "https://api.github.com" },
  "gitlab.com": { forge: "gitlab", forgeUrl: "https://gitlab.com/api/v4" },
};

/**
 * The forge of a remote on github.com or gitlab.com (https, ssh or scp-like URL), with the
 * repository's path: null for any other host (GitHub Enterprise or a self-hosted GitLab must be
 * named by an admin), a local path, or a URL without a repository path.
 */
export function forgeFromRemote(url: string): DerivedForge | null {
  const t = remoteTransport(url);
  if (!t || t.kind === "file") return null;
  const known = KNOWN[t.host.replace(/^www\./, "")];
  if (!known) return null;
  const repo = t.path
    .replace(/^\/+|\/+$/g, "")
    .replace(/\.git$/i, "")
    .replace(/^~/, "");
  const parts = repo.split("/").filter(Boolean);
  if (parts.length < 2 || (known.forge === "github" && parts.length !== 2)) return null;
  return { ...known, forgeRepo: parts.join("/") };
}
