import { octokit, ownerRepo, pullRequestHead, TIMEOUT_MS } from "./discussion.js";
import type { ForgeTarget } from "./forgeTypes.js";
import {
  answerOf,
  type HeaderMap,
  isoSeconds,
  type ListingPoll,
  PAGE,
  type PollCursor,
  type PolledComment,
  time,
  unlessGone,
} from "./pollingShared.js";

// Polling GitHub (polling.ts says what is read where): conversation and review comments with
// conditional requests, and labels given to issues.

interface GhComment {
  id: number;
  body?: string;
  html_url: string;
  created_at: string;
  updated_at: string;
  user: { login: string; id: number } | null;
  issue_url?: string;
  pull_request_url?: string;
  path?: string;
  line?: number | null;
  original_line?: number | null;
  diff_hunk?: string | null;
}

/** The number at the end of a comment's `issue_url` or `pull_request_url`. */
const numberOf = (url: string | undefined) => Number(/\/(\d+)$/.exec(url ?? "")?.[1] ?? Number.NaN);

/** The conversation (or review) comments written since the cursor, each with its pull request or issue. */
export async function githubListing(
  target: ForgeTarget,
  listing: "github:issue_comments" | "github:review_comments",
  cursor: PollCursor | undefined,
  fromMs: number,
): Promise<ListingPoll> {
  const kit = octokit(target);
  const repo = ownerRepo(target.forgeRepo);
  const since = cursor?.since ?? isoSeconds(fromMs);
  const etag = cursor?.since === since ? cursor.etag : null;
  const route =
    listing === "github:issue_comments"
      ? "GET /repos/{owner}/{repo}/issues/comments"
      : "GET /repos/{owner}/{repo}/pulls/comments";
  const read = await answerOf(
    listing,
    kit.request(route, {
      ...repo,
      since,
      sort: "updated",
      direction: "asc",
      per_page: PAGE,
      headers: etag ? { "if-none-match": etag } : {},
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    }) as Promise<{ data: unknown; headers: HeaderMap }>,
  );
  if (!("answer" in read)) return read;
  const res: { data: unknown; headers: HeaderMap } = read.answer;
  const all = (res.data as GhComment[]) ?? [];
  const next = all.reduce((m, c) => (time(c.updated_at) > time(m) ? c.updated_at : m), since);
  const fresh = all.filter((c) => time(c.created_at) >= time(since) && c.user);
  const comments: PolledComment[] = [];
  const pulls = new Map<number, Awaited<ReturnType<typeof pullRequestHead>>>();
  const issues = new Map<number, { title: string; url: string; pull: boolean }>();
  for (const c of fresh) {
    const user = c.user as { login: string; id: number };
    const base = {
      id: String(c.id),
      repo: target.forgeRepo,
      body: c.body ?? "",
      url: c.html_url,
      author: { login: user.login, id: String(user.id) },
    };
    if (listing === "github:review_comments") {
      const number = numberOf(c.pull_request_url);
      const pr = pulls.get(number) ?? (await unlessGone(pullRequestHead(target, number)));
      if (!pr) continue;
      pulls.set(number, pr);
      comments.push({
        ...base,
        kind: "review_comment",
        on: { kind: "pull", number, title: pr.title, url: pr.url },
        head: { branch: pr.branch, fork: pr.fork },
        review: { path: c.path ?? "", line: c.line ?? c.original_line ?? null, hunk: c.diff_hunk ?? null },
      });
      continue;
    }
    const number = numberOf(c.issue_url);
    let issue = issues.get(number);
    if (!issue) {
      const got = await unlessGone(
        kit.rest.issues.get({
          ...repo,
          issue_number: number,
          request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
        }),
      );
      if (!got) continue;
      const { data } = got;
      issue = { title: data.title, url: data.html_url, pull: Boolean(data.pull_request) };
      issues.set(number, issue);
    }
    comments.push({
      ...base,
      kind: "issue_comment",
      on: { kind: issue.pull ? "pull" : "issue", number, title: issue.title, url: issue.url },
      head: null,
      review: null,
    });
  }
  const answered = typeof res.headers.etag === "string" ? res.headers.etag : null;
  // The ETag answers this query: kept only while the next one is the same (`since` unchanged).
  return {
    listing,
    state: "read",
    comments,
    cursor: { since: next, last_id: null, etag: next === since ? answered : null },
  };
}

interface GhIssueEvent {
  id: number;
  event: string;
  created_at: string;
  actor: { login: string; id: number } | null;
  label?: { name: string } | null;
  issue?: {
    number: number;
    title: string;
    body?: string | null;
    html_url: string;
    user?: { login: string } | null;
    pull_request?: unknown;
  } | null;
}

/** Labels given to issues since the last event seen (GitHub's issue events, newest first). */
export async function githubIssueLabels(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
): Promise<ListingPoll> {
  const listing = "github:issue_events";
  const read = await answerOf(
    listing,
    octokit(target).request("GET /repos/{owner}/{repo}/issues/events", {
      ...ownerRepo(target.forgeRepo),
      per_page: PAGE,
      headers: cursor?.etag ? { "if-none-match": cursor.etag } : {},
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    }) as Promise<{ data: unknown; headers: HeaderMap }>,
  );
  if (!("answer" in read)) return read;
  const res: { data: unknown; headers: HeaderMap } = read.answer;
  const events = ((res.data as GhIssueEvent[]) ?? []).slice().sort((a, b) => a.id - b.id);
  const lastId = cursor?.last_id ? Number(cursor.last_id) : null;
  const from = time(isoSeconds(fromMs));
  const comments: PolledComment[] = events
    .filter((e) => (lastId !== null ? e.id > lastId : time(e.created_at) >= from))
    .filter((e) => e.event === "labeled" && e.label && e.actor && e.issue && !e.issue.pull_request)
    .map((e) => {
      const issue = e.issue as NonNullable<GhIssueEvent["issue"]>;
      const actor = e.actor as { login: string; id: number };
      return {
        kind: "issue_label",
        id: String(e.id),
        repo: target.forgeRepo,
        body: issue.body ?? "",
        url: issue.html_url,
        author: { login: actor.login, id: String(actor.id) },
        on: { kind: "issue", number: issue.number, title: issue.title, url: issue.html_url },
        head: null,
        review: null,
        label: { name: (e.label as { name: string }).name, issueAuthor: issue.user?.login ?? "?" },
      };
    });
  const newest = events.at(-1);
  const last =
    newest && (lastId === null || newest.id > lastId) ? String(newest.id) : (cursor?.last_id ?? null);
  const etag = typeof res.headers.etag === "string" ? res.headers.etag : null;
  return { listing, state: "read", comments, cursor: { since: null, last_id: last, etag } };
}
