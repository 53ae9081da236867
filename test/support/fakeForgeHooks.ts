import type { Answer, ForgeRequest } from "./fakeForge.js";

// What the fake forges say of a token and of a repository's webhooks (issue 33, item 6: `doctor`),
// checking the documented shapes. GitHub (docs.github.com, "Users" and "Repository webhooks"):
// `GET /user`, whose `X-OAuth-Scopes` header lists a classic token's scopes (a fine-grained token
// gets none); `GET /repos/{o}/{r}/hooks` (`[{ id, type, name, active, events, config: { url,
// content_type, insecure_ssl }, last_response, … }]`); `GET /repos/{o}/{r}/hooks/{id}/deliveries`
// (`per_page` 1…100; newest first: `[{ id, guid, delivered_at, status, status_code, event, … }]`).
// A token that may not read webhooks gets GitHub's 404. GitLab (docs.gitlab.com, "Personal access
// tokens API", "Project webhooks"): `GET /personal_access_tokens/self` (`{ id, name, scopes, active,
// … }`), `GET /projects/:id/hooks` (`[{ id, url, alert_status, disabled_until, … }]`); a token
// without the Maintainer role gets 403.

interface Hook {
  id: number;
  repo: string;
  url: string;
  deliveries: Array<{ status_code: number; delivered_at: string }>;
  alert_status: "executable" | "temporarily_disabled" | "disabled";
  disabled_until: string | null;
}

const NOT_FOUND: Answer = { status: 404, body: { message: "Not Found" } };

/** The token and webhooks a fake forge knows; tests set them. */
export class FakeHooks {
  /** GitHub: the scopes `X-OAuth-Scopes` lists; null: a fine-grained token (no header). GitLab: the token's `scopes`. */
  scopes: string[] | null = ["repo"];
  /** Whether the token may read the repositories' webhooks. */
  readable = true;
  private readonly hooks: Hook[] = [];
  /** Every delivery page size asked (GitHub's `per_page`), to check what codexpi asks for. */
  readonly perPage: Array<string | null> = [];

  /** A webhook of `repo` calling `url`; answers its id. */
  add(repo: string, url: string, state: Partial<Pick<Hook, "alert_status" | "disabled_until">> = {}): number {
    const id = 400 + this.hooks.length + 1;
    this.hooks.push({
      id,
      repo,
      url,
      deliveries: [],
      alert_status: state.alert_status ?? "executable",
      disabled_until: state.disabled_until ?? null,
    });
    return id;
  }

  /** Records a delivery the forge made through a hook (the newest last). */
  delivered(id: number, statusCode: number, at: string): void {
    this.hooks.find((h) => h.id === id)?.deliveries.push({ status_code: statusCode, delivered_at: at });
  }

  /** GitLab's state of a hook that failed too often (`alert_status`, `disabled_until`). */
  disable(id: number, status: Hook["alert_status"], until: string | null): void {
    const hook = this.hooks.find((h) => h.id === id);
    if (hook) Object.assign(hook, { alert_status: status, disabled_until: until });
  }

  /** GitHub: `/user`, `/repos/{o}/{r}/hooks[/{id}/deliveries]` (`path` without the Enterprise prefix), or null. */
  github(req: Omit<ForgeRequest, "status">, path: string, q: URLSearchParams, known: (r: string) => boolean) {
    if (req.method !== "GET") return null;
    if (path === "/user") {
      const headers: Record<string, string> = this.scopes ? { "x-oauth-scopes": this.scopes.join(", ") } : {};
      return { status: 200, body: { login: "codexpi-bot", id: 1, type: "User" }, headers } satisfies Answer;
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)\/hooks(?:\/(\d+)\/deliveries)?$/.exec(path);
    if (!m) return null;
    const repo = `${m[1]}/${m[2]}`;
    if (!known(repo) || !this.readable) return NOT_FOUND;
    const perPage = q.get("per_page");
    if (perPage !== null && !/^([1-9]\d?|100)$/.test(perPage))
      return { status: 422, body: { message: "Validation Failed" } };
    if (!m[3]) return { status: 200, body: this.hooks.filter((h) => h.repo === repo).map(githubHook) };
    this.perPage.push(perPage);
    const hook = this.hooks.find((h) => h.repo === repo && h.id === Number(m[3]));
    if (!hook) return NOT_FOUND;
    const newest = [...hook.deliveries].reverse().slice(0, Number(perPage ?? 30));
    return { status: 200, body: newest.map((d, i) => githubDelivery(hook, d, i)) };
  }

  /** GitLab: `/api/v4/personal_access_tokens/self`, `/api/v4/projects/:id/hooks` (`raw` path), or null. */
  gitlab(req: Omit<ForgeRequest, "status">, raw: string, project: (segment: string) => string | null) {
    if (req.method !== "GET") return null;
    if (raw === "/api/v4/personal_access_tokens/self")
      return {
        status: 200,
        body: {
          id: 42,
          name: "codexpi",
          revoked: false,
          created_at: "2026-01-01T00:00:00.000Z",
          scopes: this.scopes ?? [],
          user_id: 7,
          last_used_at: null,
          active: true,
          expires_at: null,
        },
      } satisfies Answer;
    const m = /^\/api\/v4\/projects\/([^/]+)\/hooks$/.exec(raw);
    if (!m) return null;
    const name = project(m[1]!);
    if (!name) return { status: 404, body: { message: "404 Project Not Found" } };
    if (!this.readable) return { status: 403, body: { message: "403 Forbidden" } };
    return { status: 200, body: this.hooks.filter((h) => h.repo === name).map(gitlabHook) } satisfies Answer;
  }
}

const githubHook = (h: Hook) => ({
  type: "Repository",
  id: h.id,
  name: "web",
  active: true,
  events: ["issue_comment", "pull_request_review_comment", "issues"],
  config: { url: h.url, content_type: "json", insecure_ssl: "0" },
  updated_at: "2026-01-01T00:00:00Z",
  created_at: "2026-01-01T00:00:00Z",
  url: `https://api.github.example/repos/${h.repo}/hooks/${h.id}`,
  last_response: { code: h.deliveries.at(-1)?.status_code ?? null, status: "unused", message: null },
});

const githubDelivery = (h: Hook, d: Hook["deliveries"][number], i: number) => ({
  id: h.id * 1000 + h.deliveries.length - i,
  guid: `0000000${i}-0000-0000-0000-000000000000`,
  delivered_at: d.delivered_at,
  redelivery: false,
  duration: 0.2,
  status: d.status_code === 200 ? "OK" : `Invalid HTTP Response: ${d.status_code}`,
  status_code: d.status_code,
  event: "issue_comment",
  action: "created",
  installation_id: null,
  repository_id: 1,
});

const gitlabHook = (h: Hook) => ({
  id: h.id,
  url: h.url,
  name: "codexpi",
  project_id: 100,
  push_events: false,
  note_events: true,
  issues_events: true,
  pipeline_events: true,
  merge_requests_events: false,
  enable_ssl_verification: true,
  created_at: "2026-01-01T00:00:00Z",
  alert_status: h.alert_status,
  disabled_until: h.disabled_until,
  url_variables: [],
});
