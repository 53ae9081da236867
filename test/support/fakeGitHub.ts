import { type Answer, type ForgeRequest, forgeServer, stringFields } from "./fakeForge.js";
import { FakeActions } from "./fakeGitHubActions.js";
import { FakeHooks } from "./fakeForgeHooks.js";
import { FakeComments } from "./fakeGitHubComments.js";

// A fake GitHub REST API on 127.0.0.1, checking each request against GitHub's documented shape
// (docs.github.com, "Pulls"): `POST /repos/{owner}/{repo}/pulls` with a JSON body holding string
// `title`, `head`, `base` and an optional string `body`; `GET /repos/{owner}/{repo}/pulls` (filters
// `head=owner:branch`, `base`, `state`); `GET /repos/{owner}/{repo}/pulls/{pull_number}`. The token
// comes as `Authorization: Bearer <t>` or `token <t>`; the media type is GitHub's JSON
// (`application/vnd.github…+json`) or plain JSON. GitHub Enterprise serves the same under
// `/api/v3`. It answers as GitHub does: 201 with `number`, `html_url`, `state`; 401 "Bad
// credentials"; 404 "Not Found"; 422 "Validation Failed" (a malformed body, or "A pull request
// already exists for owner:branch."). Also `POST /repos/{owner}/{repo}/issues/{n}/comments` (a
// comment on an issue or a pull request's conversation, issue 33), and Actions' runs, jobs and job logs
// (fakeGitHubActions.ts), and the comment listings polling reads, with ETags (fakeGitHubComments.ts).

/** A pull request the fake holds. */
interface Pull {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  state: "open" | "closed";
  merged_at: string | null;
  html_url: string;
  /** The repository of its head (a fork's, or the same); the base's is the repository itself. */
  head_repo: string;
  base_repo: string;
}

/** A comment posted on an issue or pull request (`POST …/issues/{n}/comments`). */
interface IssueComment {
  id: number;
  number: number;
  body: string;
  html_url: string;
}

export interface FakeGitHub {
  /** The API's base URL codexpi is given (`…/api/v3` for Enterprise). */
  apiUrl: string;
  received: ForgeRequest[];
  /** The pull requests of `owner/repo`, in order. */
  pulls(repo: string): Pull[];
  /** Adds a pull request as if someone had opened it on GitHub (`fork`: its head in another repository). */
  addPull(repo: string, p: { title: string; head: string; base?: string; fork?: boolean }): number;
  /** The comments posted on `owner/repo`'s issues and pull requests, in order. */
  comments(repo: string): IssueComment[];
  /** GitHub Actions' runs (`actions.add(repo, sha, jobs)` makes one). */
  actions: FakeActions;
  /** The token's scopes and the repositories' webhooks (`doctor`, fakeForgeHooks.ts). */
  hooks: FakeHooks;
  /** Every comment as the listings give them: people's (`discussion.add`) and those posted through the API. */
  discussion: FakeComments;
  /** Marks a pull request merged (as GitHub shows it: closed, `merged_at` set). */
  merge(repo: string, number: number): void;
  close(): Promise<void>;
}

const WEB = "https://github.example";

function view(p: Pull) {
  return {
    ...p,
    head: { ref: p.head, repo: { full_name: p.head_repo } },
    base: { ref: p.base, repo: { full_name: p.base_repo } },
    merged: p.merged_at !== null,
  };
}

function authorised(headers: ForgeRequest["headers"], token: string): boolean {
  const auth = headers.authorization ?? "";
  return auth === `Bearer ${token}` || auth === `token ${token}`;
}

const acceptable = (accept: string | undefined) =>
  !accept || /application\/vnd\.github(?:\.[\w-]+)?(?:\+json)?|application\/json|\*\/\*/.test(accept);

/** Starts a fake GitHub (`enterprise`: under /api/v3) knowing `repos` ("owner/name") and one token. */
export async function startFakeGitHub(opts: {
  token: string;
  repos: string[];
  enterprise?: boolean;
}): Promise<FakeGitHub> {
  const prefix = opts.enterprise ? "/api/v3" : "";
  const store = new Map<string, Pull[]>(opts.repos.map((r) => [r, []]));
  const comments = new Map<string, IssueComment[]>(opts.repos.map((r) => [r, []]));
  const actions = new FakeActions();
  const hooks = new FakeHooks();
  const discussion = new FakeComments();
  const route = (req: Omit<ForgeRequest, "status">): Answer => {
    const blob = actions.blob(new URL(req.url, "http://fake").pathname);
    if (blob) return blob;
    if (!authorised(req.headers, opts.token))
      return {
        status: 401,
        body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" },
      };
    if (!acceptable(req.headers.accept)) return { status: 415, body: { message: "Unsupported media type" } };
    const url = new URL(req.url, "http://fake");
    const hooked = hooks.github(req, url.pathname.slice(prefix.length), url.searchParams, (r) =>
      store.has(r),
    );
    if (hooked) return hooked;
    if (!url.pathname.startsWith(`${prefix}/repos/`)) return { status: 404, body: { message: "Not Found" } };
    const c = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname.slice(prefix.length));
    if (c && req.method === "POST") {
      const posted = comment(req, `${c[1]}/${c[2]}`, Number(c[3]), comments);
      if (posted.status === 201)
        discussion.add(`${c[1]}/${c[2]}`, Number(c[3]), {
          login: "codexpi-bot",
          userId: 1,
          body: (posted.body as IssueComment).body,
        });
      return posted;
    }
    const l = /^\/repos\/([^/]+)\/([^/]+)(\/(?:issues|pulls)\/comments|\/issues\/events)$/.exec(
      url.pathname.slice(prefix.length),
    );
    const listed =
      l && store.has(`${l[1]}/${l[2]}`)
        ? discussion.route(req, `${l[1]}/${l[2]}`, l[3]!, url.searchParams)
        : null;
    if (listed) return listed;
    const i = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(url.pathname.slice(prefix.length));
    if (i && req.method === "GET") {
      // Only pull requests are issues here: GitHub answers them with a `pull_request` key.
      const p = store.get(`${i[1]}/${i[2]}`)?.find((x) => x.number === Number(i[3]));
      return p
        ? {
            status: 200,
            body: {
              number: p.number,
              title: p.title,
              html_url: p.html_url,
              state: p.state,
              pull_request: { url: `${WEB}/${i[1]}/${i[2]}/pull/${p.number}`, html_url: p.html_url },
            },
          }
        : { status: 404, body: { message: "Not Found" } };
    }
    const a = /^\/repos\/([^/]+)\/([^/]+)(\/actions\/.*)$/.exec(url.pathname.slice(prefix.length));
    const ran =
      a && store.has(`${a[1]}/${a[2]}`)
        ? actions.route(req, `${a[1]}/${a[2]}`, a[3]!, url.searchParams)
        : null;
    if (ran) return ran;
    const m = /^\/repos\/([^/]+)\/([^/]+)\/pulls(?:\/(\d+))?$/.exec(url.pathname.slice(prefix.length));
    const repo = m ? `${m[1]}/${m[2]}` : "";
    const pulls = store.get(repo);
    if (!m || !pulls) return { status: 404, body: { message: "Not Found" } };
    if (req.method === "POST" && !m[3]) return create(req, repo, pulls);
    if (req.method === "GET" && m[3]) {
      const p = pulls.find((x) => x.number === Number(m[3]));
      return p ? { status: 200, body: view(p) } : { status: 404, body: { message: "Not Found" } };
    }
    if (req.method === "GET") return { status: 200, body: list(url.searchParams, m[1]!, pulls).map(view) };
    return { status: 404, body: { message: "Not Found" } };
  };
  const server = await forgeServer(route);
  actions.base = `http://127.0.0.1:${server.port}`;
  return {
    apiUrl: `http://127.0.0.1:${server.port}${prefix}`,
    received: server.received,
    actions,
    hooks,
    discussion,
    pulls: (repo) => store.get(repo) ?? [],
    comments: (repo) => comments.get(repo) ?? [],
    addPull(repo, p) {
      const pulls = store.get(repo) ?? [];
      const number = pulls.length + 1;
      pulls.push({
        number,
        title: p.title,
        body: null,
        head: p.head,
        base: p.base ?? "main",
        state: "open",
        merged_at: null,
        html_url: `${WEB}/${repo}/pull/${number}`,
        head_repo: p.fork ? `someone-else/${repo.split("/")[1]}` : repo,
        base_repo: repo,
      });
      return number;
    },
    merge(repo, number) {
      const p = store.get(repo)?.find((x) => x.number === number);
      if (p) Object.assign(p, { state: "closed", merged_at: new Date(0).toISOString() });
    },
    close: server.close,
  };
}

function create(req: Omit<ForgeRequest, "status">, repo: string, pulls: Pull[]): Answer {
  const bad = String(req.headers["content-type"] ?? "").startsWith("application/json")
    ? stringFields(req.body, ["title", "head", "base"], ["body"])
    : ["body"];
  if (bad.length)
    return {
      status: 422,
      body: {
        message: "Validation Failed",
        errors: bad.map((field) => ({ resource: "PullRequest", field, code: "missing_field" })),
      },
    };
  const b = req.body as { title: string; head: string; base: string; body?: string };
  const owner = repo.split("/")[0];
  if (pulls.some((p) => p.state === "open" && p.head === b.head && p.base === b.base))
    return {
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [
          {
            resource: "PullRequest",
            code: "custom",
            message: `A pull request already exists for ${owner}:${b.head}.`,
          },
        ],
      },
    };
  const number = pulls.length + 1;
  const pull: Pull = {
    number,
    title: b.title,
    body: b.body ?? null,
    head: b.head,
    base: b.base,
    state: "open",
    merged_at: null,
    html_url: `${WEB}/${repo}/pull/${number}`,
    head_repo: repo,
    base_repo: repo,
  };
  pulls.push(pull);
  return { status: 201, body: view(pull) };
}

/** `GET …/pulls` with GitHub's filters: `head` as `owner:branch`, `base`, `state` (default open). */
function list(q: URLSearchParams, owner: string, pulls: Pull[]): Pull[] {
  const state = q.get("state") ?? "open";
  const head = q.get("head");
  return pulls.filter(
    (p) =>
      (state === "all" || p.state === state) &&
      (!head || head === `${owner}:${p.head}`) &&
      (!q.get("base") || q.get("base") === p.base),
  );
}

/** `POST …/issues/{n}/comments` with a string `body` (GitHub: 201 with `id`, `html_url`; 422 without a body). */
function comment(
  req: Omit<ForgeRequest, "status">,
  repo: string,
  number: number,
  all: Map<string, IssueComment[]>,
): Answer {
  const list = all.get(repo);
  if (!list) return { status: 404, body: { message: "Not Found" } };
  const bad = String(req.headers["content-type"] ?? "").startsWith("application/json")
    ? stringFields(req.body, ["body"], [])
    : ["body"];
  if (bad.length) return { status: 422, body: { message: "Validation Failed" } };
  const c: IssueComment = {
    id: 1000 + list.length,
    number,
    body: (req.body as { body: string }).body,
    html_url: `${WEB}/${repo}/pull/${number}#issuecomment-${1000 + list.length}`,
  };
  list.push(c);
  return { status: 201, body: c };
}
