import { type Answer, type ForgeRequest, forgeServer, stringFields } from "./fakeForge.js";
import { FakeNoteEvents } from "./fakeGitLabEvents.js";
import { FakeIssues } from "./fakeGitLabIssues.js";
import { FakePipelines } from "./fakeGitLabPipelines.js";
import { FakeHooks } from "./fakeForgeHooks.js";

// A fake GitLab REST API (v4) on 127.0.0.1, checking each request against GitLab's documented shape
// (docs.gitlab.com, "Merge requests API"): `POST /api/v4/projects/:id/merge_requests` with
// `source_branch`, `target_branch`, `title` and an optional `description`; `GET
// /api/v4/projects/:id/merge_requests` (filters `source_branch`, `target_branch`, `state`); `GET
// /api/v4/projects/:id/merge_requests/:merge_request_iid`. `:id` is the project's number or its
// full path URL-encoded as one segment (`group%2Fsub%2Fname`); a raw slash is a 404. The token
// comes as `PRIVATE-TOKEN: <t>` or `Authorization: Bearer <t>`. It answers as GitLab does: 201 with
// `iid`, `web_url`, `state` ("opened"); 401 "401 Unauthorized"; 404 "404 Project Not Found"; 400
// "<field> is missing"; 409 "Another open merge request already exists for this source branch".
// Also `POST /api/v4/projects/:id/merge_requests/:iid/notes` and `…/issues/:iid/notes` with a
// string `body` (a comment on a merge request or an issue, issue 33): 201 with `id`, `body`; and
// pipelines' jobs and job traces (fakeGitLabPipelines.ts). A merge request names its source and
// target projects (`source_project_id`, `target_project_id`: the same unless `fork`). And what
// polling reads: the project's comment events (fakeGitLabEvents.ts), its issues and their label
// events (fakeGitLabIssues.ts).

/** A merge request the fake holds. */
interface MergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  source_branch: string;
  target_branch: string;
  state: "opened" | "closed" | "merged";
  web_url: string;
  source_project_id: number;
  target_project_id: number;
}

export interface FakeGitLab {
  /** The API's base URL codexpi is given (`…/api/v4`). */
  apiUrl: string;
  received: ForgeRequest[];
  mergeRequests(project: string): MergeRequest[];
  /** Adds a merge request as if someone had opened it on GitLab (from `source` into `target`, default main). */
  addMergeRequest(project: string, mr: { title: string; source: string; target?: string }): number;
  /** The notes posted on `project`'s merge requests and issues (`on`), in order. */
  notes(project: string): Array<{ iid: number; body: string; on: "merge_request" | "issue" }>;
  /** GitLab CI's pipelines (`pipelines.add(project, jobs)` makes one). */
  pipelines: FakePipelines;
  /** Notes as the events API lists them: people's (`events.add`) and those posted through the API. */
  events: FakeNoteEvents;
  /** The project's issues, the labels given them, the notes posted on them. */
  issues: FakeIssues;
  merge(project: string, iid: number): void;
  /** The token's scopes and the projects' webhooks (`doctor`, fakeForgeHooks.ts). */
  hooks: FakeHooks;
  close(): Promise<void>;
}

const WEB = "https://gitlab.example";

function authorised(headers: ForgeRequest["headers"], token: string): boolean {
  return headers["private-token"] === token || headers.authorization === `Bearer ${token}`;
}

/** Starts a fake GitLab knowing `projects` (full paths; project n+1 has the numeric id 100+n). */
export async function startFakeGitLab(opts: { token: string; projects: string[] }): Promise<FakeGitLab> {
  const store = new Map<string, MergeRequest[]>(opts.projects.map((p) => [p, []]));
  const notes = new Map<string, Array<{ iid: number; body: string; on: "merge_request" | "issue" }>>(
    opts.projects.map((p) => [p, []]),
  );
  const byId = (segment: string): string | null => {
    if (/^\d+$/.test(segment)) return opts.projects[Number(segment) - 100] ?? null;
    if (segment.includes("/")) return null;
    const p = decodeURIComponent(segment);
    return store.has(p) ? p : null;
  };
  const pipelines = new FakePipelines();
  const hooks = new FakeHooks();
  hooks.scopes = ["api"];
  const events = new FakeNoteEvents();
  const issues = new FakeIssues();
  const route = (req: Omit<ForgeRequest, "status">): Answer => {
    if (!authorised(req.headers, opts.token)) return { status: 401, body: { message: "401 Unauthorized" } };
    const url = new URL(req.url, "http://fake");
    // The raw path: an encoded slash must stay inside the `:id` segment.
    const raw = req.url.split("?")[0]!;
    const hooked = hooks.gitlab(req, raw, byId);
    if (hooked) return hooked;
    const ci = /^\/api\/v4\/projects\/([^/]+)(\/(?:pipelines|jobs)\/.*)$/.exec(raw);
    const ciProject = ci ? byId(ci[1]!) : null;
    const ran = ci && ciProject ? pipelines.route(req, ciProject, ci[2]!) : null;
    if (ran) return ran;
    const n = /^\/api\/v4\/projects\/([^/]+)\/(merge_requests|issues)\/(\d+)\/notes$/.exec(raw);
    const noted = n ? byId(n[1]!) : null;
    if (n && noted && req.method === "POST") {
      const bad = stringFields(req.body, ["body"], []);
      if (bad.length) return { status: 400, body: { message: "body is missing" } };
      const list = notes.get(noted)!;
      const on = n[2] === "issues" ? "issue" : "merge_request";
      list.push({ iid: Number(n[3]), body: (req.body as { body: string }).body, on });
      events.add(noted, Number(n[3]), {
        username: "codexpi-bot",
        userId: 1,
        body: (req.body as { body: string }).body,
      });
      return { status: 201, body: { id: 500 + list.length, body: (req.body as { body: string }).body } };
    }
    const is = /^\/api\/v4\/projects\/([^/]+)(\/issues(?:\/.*)?)$/.exec(raw);
    const isProject = is ? byId(is[1]!) : null;
    const issued = isProject ? issues.route(req, isProject, is![2]!, url.searchParams) : null;
    if (issued) return issued;
    const ev = /^\/api\/v4\/projects\/([^/]+)\/events$/.exec(raw);
    const evProject = ev ? byId(ev[1]!) : null;
    const listed = evProject
      ? events.route(req, evProject, opts.projects.indexOf(evProject) + 100, url.searchParams)
      : null;
    if (listed) return listed;
    const m = /^\/api\/v4\/projects\/([^/]+)\/merge_requests(?:\/(\d+))?$/.exec(raw);
    const project = m ? byId(m[1]!) : null;
    if (!m || !project) return { status: 404, body: { message: "404 Project Not Found" } };
    const mrs = store.get(project)!;
    if (req.method === "POST" && !m[2])
      return create(req, project, opts.projects.indexOf(project) + 100, mrs);
    if (req.method === "GET" && m[2]) {
      const mr = mrs.find((x) => x.iid === Number(m[2]));
      return mr ? { status: 200, body: mr } : { status: 404, body: { message: "404 Not found" } };
    }
    if (req.method === "GET") return { status: 200, body: list(url.searchParams, mrs) };
    return { status: 405, body: { message: "405 Method Not Allowed" } };
  };
  const server = await forgeServer(route);
  return {
    apiUrl: `http://127.0.0.1:${server.port}/api/v4`,
    received: server.received,
    mergeRequests: (p) => store.get(p) ?? [],
    addMergeRequest(p, mr) {
      const created = create(
        {
          method: "POST",
          url: "",
          headers: {},
          body: { source_branch: mr.source, target_branch: mr.target ?? "main", title: mr.title },
        },
        p,
        opts.projects.indexOf(p) + 100,
        store.get(p)!,
      );
      return (created.body as MergeRequest).iid;
    },
    notes: (p) => notes.get(p) ?? [],
    pipelines,
    hooks,
    events,
    issues,
    merge(p, iid) {
      const mr = store.get(p)?.find((x) => x.iid === iid);
      if (mr) mr.state = "merged";
    },
    close: server.close,
  };
}

function create(
  req: Omit<ForgeRequest, "status">,
  project: string,
  projectId: number,
  mrs: MergeRequest[],
): Answer {
  const bad = stringFields(req.body, ["source_branch", "target_branch", "title"], ["description"]);
  if (bad.length) return { status: 400, body: { error: `${bad.join(", ")} is missing` } };
  const b = req.body as { source_branch: string; target_branch: string; title: string; description?: string };
  const open = mrs.find(
    (x) => x.state === "opened" && x.source_branch === b.source_branch && x.target_branch === b.target_branch,
  );
  if (open)
    return {
      status: 409,
      body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] },
    };
  const iid = mrs.length + 1;
  const mr: MergeRequest = {
    id: 9000 + iid,
    iid,
    project_id: projectId,
    title: b.title,
    description: b.description ?? null,
    source_branch: b.source_branch,
    target_branch: b.target_branch,
    state: "opened",
    web_url: `${WEB}/${project}/-/merge_requests/${iid}`,
    source_project_id: projectId,
    target_project_id: projectId,
  };
  mrs.push(mr);
  return { status: 201, body: mr };
}

function list(q: URLSearchParams, mrs: MergeRequest[]): MergeRequest[] {
  const state = q.get("state");
  return mrs.filter(
    (x) =>
      (!state || state === "all" || x.state === state) &&
      (!q.get("source_branch") || q.get("source_branch") === x.source_branch) &&
      (!q.get("target_branch") || q.get("target_branch") === x.target_branch),
  );
}
