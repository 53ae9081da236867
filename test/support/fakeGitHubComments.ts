import { createHash } from "node:crypto";
import type { Answer, ForgeRequest } from "./fakeForge.js";

// The comment listings of the fake GitHub, for polling (docs.github.com, "Issue comments" and
// "Pull request review comments"): `GET /repos/{owner}/{repo}/issues/comments` and `GET
// /repos/{owner}/{repo}/pulls/comments`, with `since` (ISO 8601, comments *updated* at or after
// it), `sort` (`created` | `updated`), `direction` (`asc` | `desc`) and `per_page` (≤ 100); each
// answer carries an `ETag` (weak, of its body), and a request whose `If-None-Match` is that ETag
// is answered 304 with no body, as GitHub does ("Best practices for using the REST API"). `GET
// /repos/{owner}/{repo}/issues/{n}` answers a pull request as an issue with a `pull_request` key.
// `GET /repos/{owner}/{repo}/issues/events` ("Issue events": newest first, `per_page`, an ETag) lists
// the labels given to issues (`label`), each `{ id, event: "labeled", actor, label, created_at,
// issue }`.
// A malformed query is a 422, as GitHub's validation answers.

/** A comment on an issue or pull request's conversation, or a review comment on a line. */
export interface FakeComment {
  id: number;
  number: number;
  body: string;
  html_url: string;
  user: { login: string; id: number };
  created_at: string;
  updated_at: string;
  review?: { path: string; line: number; diff_hunk: string };
}

const WEB = "https://github.example";
/** GitHub's timestamps: to the second. */
export const githubTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export class FakeComments {
  private readonly all: Array<FakeComment & { repo: string }> = [];
  private next = 1000;
  /** Answers the next listing request with this refusal (a rate limit), once. */
  refuseNext: Answer | null = null;

  /** Adds a comment as someone wrote it on GitHub (`at`: when; now by default); answers it. */
  add(
    repo: string,
    number: number,
    c: { login: string; body: string; userId?: number; at?: Date; review?: FakeComment["review"] },
  ): FakeComment {
    const id = this.next++;
    const at = githubTime(c.at ?? new Date());
    const comment = {
      repo,
      id,
      number,
      body: c.body,
      html_url: `${WEB}/${repo}/pull/${number}#${c.review ? "discussion_r" : "issuecomment-"}${id}`,
      user: { login: c.login, id: c.userId ?? 583231 },
      created_at: at,
      updated_at: at,
      ...(c.review ? { review: c.review } : {}),
    };
    this.all.push(comment);
    return comment;
  }

  /** Edits a comment's body (its `updated_at` moves, its `created_at` stays). */
  edit(id: number, body: string): void {
    const c = this.all.find((x) => x.id === id);
    if (c) Object.assign(c, { body, updated_at: githubTime(new Date()) });
  }

  private readonly events: Array<{ repo: string; id: number; body: object }> = [];

  /** Gives issue `number` of `repo` the label `label`, as `login` (`at`: when; now by default). */
  label(repo: string, number: number, l: { login: string; label: string; body: string; at?: Date }): number {
    const id = 50_000 + this.events.length;
    this.events.push({
      repo,
      id,
      body: {
        id,
        event: "labeled",
        actor: { login: l.login, id: 583231 },
        label: { name: l.label, color: "ededed" },
        created_at: githubTime(l.at ?? new Date()),
        issue: {
          number,
          title: "The widget is misnamed",
          body: l.body,
          html_url: `${WEB}/${repo}/issues/${number}`,
          user: { login: "reporter" },
          state: "open",
        },
      },
    });
    return id;
  }

  /** The conversation comments of `repo` (not review comments), in order. */
  conversation(repo: string): FakeComment[] {
    return this.all.filter((c) => c.repo === repo && !c.review);
  }

  /** `GET …/issues/comments` or `GET …/pulls/comments`; null when the path is neither. */
  route(req: Omit<ForgeRequest, "status">, repo: string, rest: string, q: URLSearchParams): Answer | null {
    if (req.method === "GET" && rest === "/issues/events") {
      const perPage = Number(q.get("per_page") ?? 30);
      if (!(perPage >= 1 && perPage <= 100)) return { status: 422, body: { message: "Validation Failed" } };
      return this.conditional(
        req,
        this.events
          .filter((e) => e.repo === repo)
          .sort((a, b) => b.id - a.id)
          .slice(0, perPage)
          .map((e) => e.body),
      );
    }
    const listing = rest === "/issues/comments" ? "issue" : rest === "/pulls/comments" ? "review" : null;
    if (!listing || req.method !== "GET") return null;
    if (this.refuseNext) {
      const refusal = this.refuseNext;
      this.refuseNext = null;
      return refusal;
    }
    const since = q.get("since");
    const sort = q.get("sort") ?? "created";
    const direction = q.get("direction") ?? (sort === "created" ? "desc" : "desc");
    const perPage = Number(q.get("per_page") ?? 30);
    const invalid =
      (since !== null && Number.isNaN(Date.parse(since))) ||
      !["created", "updated"].includes(sort) ||
      !["asc", "desc"].includes(direction) ||
      !(perPage >= 1 && perPage <= 100);
    if (invalid) return { status: 422, body: { message: "Validation Failed" } };
    const items = this.all
      .filter((c) => c.repo === repo && (listing === "review") === Boolean(c.review))
      .filter((c) => since === null || Date.parse(c.updated_at) >= Date.parse(since))
      .sort((a, b) => {
        const key = sort === "updated" ? "updated_at" : "created_at";
        const d = Date.parse(a[key]) - Date.parse(b[key]) || a.id - b.id;
        return direction === "asc" ? d : -d;
      })
      .slice(0, perPage)
      .map(({ repo: _repo, review, ...c }) => ({
        ...c,
        ...(listing === "issue"
          ? { issue_url: `https://api.github.example/repos/${repo}/issues/${c.number}` }
          : {
              pull_request_url: `https://api.github.example/repos/${repo}/pulls/${c.number}`,
              path: review?.path,
              line: review?.line,
              original_line: review?.line,
              diff_hunk: review?.diff_hunk,
            }),
      }));
    return this.conditional(req, items);
  }

  /** 200 with a weak ETag of the body, or 304 when the request's `If-None-Match` is that ETag. */
  private conditional(req: Omit<ForgeRequest, "status">, items: unknown[]): Answer {
    const etag = `W/"${createHash("sha1").update(JSON.stringify(items)).digest("hex")}"`;
    if (req.headers["if-none-match"] === etag) return { status: 304, body: null, headers: { etag } };
    return { status: 200, body: items, headers: { etag } };
  }
}
