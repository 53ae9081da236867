import type { Answer, ForgeRequest } from "./fakeForge.js";

// A project's issues as the fake GitLab serves them, for polling labelled issues (docs.gitlab.com,
// "Issues API" and "Resource label events API"): `GET /api/v4/projects/:id/issues` (filters
// `labels` — comma-separated, all of them —, `updated_after`, `order_by` `created_at|updated_at`,
// `sort` `asc|desc`, `per_page` ≤ 100); `GET …/issues/:issue_iid`; `GET
// …/issues/:issue_iid/resource_label_events` (`{ id, user, created_at, resource_type: "Issue",
// resource_id, label: { id, name }, action: "add" | "remove" }`). A bad `updated_after` or `sort`
// is a 400. Notes posted on an issue are the fake GitLab's own (fakeGitLab.ts).

interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string;
  author: { username: string; id: number };
  labels: string[];
  created_at: string;
  updated_at: string;
  web_url: string;
}

interface LabelEvent {
  id: number;
  iid: number;
  project: string;
  user: { username: string; id: number };
  created_at: string;
  label: string;
}

const WEB = "https://gitlab.example";

export class FakeIssues {
  private readonly issues = new Map<string, Issue[]>();
  private readonly events: LabelEvent[] = [];

  /** Adds an issue as someone opened it; answers its iid. */
  add(
    project: string,
    projectId: number,
    i: { title: string; description: string; author?: string },
  ): number {
    const list = this.issues.get(project) ?? [];
    this.issues.set(project, list);
    const iid = list.length + 1;
    const now = new Date().toISOString();
    list.push({
      id: 4000 + iid,
      iid,
      project_id: projectId,
      title: i.title,
      description: i.description,
      author: { username: i.author ?? "reporter", id: 77 },
      labels: [],
      created_at: now,
      updated_at: now,
      web_url: `${WEB}/${project}/-/issues/${iid}`,
    });
    return iid;
  }

  /** Adds `label` to an issue, as `username`; answers the label event's id. */
  label(project: string, iid: number, l: { username: string; label: string; userId?: number }): number {
    const issue = this.issues.get(project)?.find((x) => x.iid === iid);
    if (!issue) throw new Error(`no issue ${iid}`);
    const at = new Date().toISOString();
    issue.labels.push(l.label);
    issue.updated_at = at;
    const id = 80_000 + this.events.length;
    this.events.push({
      id,
      iid,
      project,
      user: { username: l.username, id: l.userId ?? 42 },
      created_at: at,
      label: l.label,
    });
    return id;
  }

  /** The routes under `/projects/:id/issues`; null for anything else. */
  route(req: Omit<ForgeRequest, "status">, project: string, rest: string, q: URLSearchParams): Answer | null {
    const list = this.issues.get(project) ?? [];
    if (rest === "/issues" && req.method === "GET") {
      const after = q.get("updated_after");
      if (after !== null && Number.isNaN(Date.parse(after)))
        return { status: 400, body: { error: "updated_after is invalid" } };
      const sort = q.get("sort") ?? "desc";
      const orderBy = q.get("order_by") ?? "created_at";
      if (!["asc", "desc"].includes(sort) || !["created_at", "updated_at"].includes(orderBy))
        return { status: 400, body: { error: "sort or order_by does not have a valid value" } };
      const wanted = (q.get("labels") ?? "").split(",").filter(Boolean);
      const items = list
        .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w.toLowerCase())))
        .filter((i) => after === null || Date.parse(i.updated_at) >= Date.parse(after))
        .sort((a, b) => {
          const key = orderBy === "updated_at" ? "updated_at" : "created_at";
          const d = Date.parse(a[key]) - Date.parse(b[key]) || a.iid - b.iid;
          return sort === "asc" ? d : -d;
        })
        .slice(0, Math.min(100, Number(q.get("per_page") ?? 20)));
      return { status: 200, body: items };
    }
    const m = /^\/issues\/(\d+)(\/resource_label_events)?$/.exec(rest);
    const issue = m ? list.find((i) => i.iid === Number(m[1])) : undefined;
    if (!m) return null;
    if (!issue) return { status: 404, body: { message: "404 Issue Not Found" } };
    if (!m[2] && req.method === "GET") return { status: 200, body: issue };
    if (m[2] === "/resource_label_events" && req.method === "GET")
      return {
        status: 200,
        body: this.events
          .filter((e) => e.project === project && e.iid === issue.iid)
          .map((e) => ({
            id: e.id,
            user: { ...e.user, name: e.user.username, state: "active" },
            created_at: e.created_at,
            resource_type: "Issue",
            resource_id: issue.id,
            label: { id: 1, name: e.label, color: "#428BCA" },
            action: "add",
          })),
      };
    return { status: 405, body: { message: "405 Method Not Allowed" } };
  }
}
