import { isEngineError } from "../errors.js";
import { forgeFailure, statusOf } from "./forgeErrors.js";
import type { ForgeTarget } from "./forgeTypes.js";
import { gitlab, octokit, ownerRepo, projectId, pullRequestHead, TIMEOUT_MS } from "./discussion.js";

// Polling the forge (issue 33, item 1: installs without a public URL), read with the project's
// token through the same clients as the rest of engine/forge. Only comments created since the
// cursor are given (an edit is no new request, as with webhooks), with the pull request or issue
// they are on, so that the front end can make of each the payload a webhook would have carried.
// - GitHub: `GET /repos/{o}/{r}/issues/comments` (a pull request's conversation is its issue's)
//   and `GET /repos/{o}/{r}/pulls/comments` (review comments), both `since=…&sort=updated&
//   direction=asc`, with `If-None-Match` the last ETag of the same query: a 304 does not count
//   against the rate limit (docs.github.com, "Best practices for using the REST API").
//   Labels given to issues: `GET /repos/{o}/{r}/issues/events` (newest first, one page; the same
//   URL each time, so its ETag always applies), the `labeled` events after the last one seen.
// - GitLab: `GET /projects/:id/events?action=commented&after=YYYY-MM-DD&sort=asc` (each event
//   carries its note), then the merge request or issue. Labels given to issues: `GET
//   /projects/:id/issues?labels=<label>&updated_after=…` and, for each issue updated, `GET
//   /projects/:id/issues/:iid/resource_label_events` (who added the label, when). GitLab's REST
//   API does not answer `If-None-Match` (gitlab-org/gitlab#14357): a few requests per period.

/** Where a listing was read up to. */
export interface PollCursor {
  /** GitHub: the last comment's `updated_at` (the next `since`); GitLab: the last event's time. */
  since: string | null;
  /** GitLab: the last event's id (events are numbered in order). */
  last_id: string | null;
  /** The ETag of the answer to `since`'s query (GitHub), sent back while `since` stays. */
  etag: string | null;
}

/**
 * A comment read from the forge, with what a webhook's payload would have said of it; or (kind
 * `issue_label`) a label given to an issue: its author is who labelled it, its body the issue's.
 */
export interface PolledComment {
  kind: "issue_comment" | "review_comment" | "note" | "issue_label";
  id: string;
  /** `owner/name`, GitLab's `group/sub/name`: as the webhook's payload names the repository. */
  repo: string;
  body: string;
  url: string;
  author: { login: string; id: string };
  on: { kind: "pull" | "issue"; number: number; title: string; url: string };
  /** A pull request's head (its branch, whether it comes from a fork); null on an issue. */
  head: { branch: string; fork: boolean } | null;
  /** A review comment's (or GitLab diff note's) place. */
  review: { path: string; line: number | null; hunk: string | null } | null;
  /** `issue_label`: the label given, and who wrote the issue. */
  label?: { name: string; issueAuthor: string };
}

/** What reading one listing gave. */
export type ListingPoll =
  | { listing: string; state: "unchanged" }
  | { listing: string; state: "read"; comments: PolledComment[]; cursor: PollCursor }
  /** The forge's rate limit is spent: nothing before `until` (epoch ms). */
  | { listing: string; state: "limited"; until: number };

const PAGE = 100;
/** How long to wait after a 429 that says nothing of when to come back. */
const LIMITED_DEFAULT_MS = 60_000;

type HeaderMap = Record<string, string | number | undefined>;

/** The headers of a failed request's answer (Octokit's plain object, Gitbeaker's fetch Response). */
function headersOf(e: unknown): HeaderMap {
  const octo = (e as { response?: { headers?: unknown } }).response?.headers;
  if (octo && typeof octo === "object" && !(octo instanceof Headers)) return octo as HeaderMap;
  const res = (e as { cause?: { response?: { headers?: { get?: unknown } } } }).cause?.response;
  if (res?.headers && typeof (res.headers as globalThis.Headers).get === "function") {
    const h = res.headers as globalThis.Headers;
    return Object.fromEntries(h.entries());
  }
  return {};
}

/**
 * When a refused request may be made again, when the refusal is the rate limit: `Retry-After`
 * (secondary limits, 429), or a spent primary limit (`X-RateLimit-Remaining: 0` until
 * `X-RateLimit-Reset`, GitLab's `RateLimit-Reset`); null for any other refusal.
 */
function limitedUntil(e: unknown, now: number): number | null {
  const status = statusOf(e);
  const retried = e instanceof Error && /last status code: 429/.test(e.message);
  if (status !== 403 && status !== 429 && !retried) return null;
  const h = headersOf(e);
  const retryAfter = Number(h["retry-after"]);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return now + retryAfter * 1000;
  const remaining = h["x-ratelimit-remaining"] ?? h["ratelimit-remaining"];
  const reset = Number(h["x-ratelimit-reset"] ?? h["ratelimit-reset"]);
  if (String(remaining) === "0" && Number.isFinite(reset)) return Math.max(now, reset * 1000);
  return status === 403 ? null : now + LIMITED_DEFAULT_MS;
}

/**
 * What a comment is on, or null when it is gone (a 404: the pull request or issue was deleted, or
 * made confidential): that comment is skipped rather than holding the whole listing back.
 */
async function unlessGone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (e) {
    if (statusOf(e) === 404 || (isEngineError(e) && e.reason === "forge_repo_not_found")) return null;
    throw e;
  }
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);
/** The query's `since`, to the second (the forges' timestamps are). */
const isoSeconds = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");

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

async function githubListing(
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
  let res: { data: unknown; headers: HeaderMap };
  try {
    res = await kit.request(route, {
      ...repo,
      since,
      sort: "updated",
      direction: "asc",
      per_page: PAGE,
      headers: etag ? { "if-none-match": etag } : {},
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    });
  } catch (e) {
    if (statusOf(e) === 304) return { listing, state: "unchanged" };
    const until = limitedUntil(e, Date.now());
    if (until !== null) return { listing, state: "limited", until };
    throw e;
  }
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
async function githubIssueLabels(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
): Promise<ListingPoll> {
  const listing = "github:issue_events";
  let res: { data: unknown; headers: HeaderMap };
  try {
    res = await octokit(target).request("GET /repos/{owner}/{repo}/issues/events", {
      ...ownerRepo(target.forgeRepo),
      per_page: PAGE,
      headers: cursor?.etag ? { "if-none-match": cursor.etag } : {},
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    });
  } catch (e) {
    if (statusOf(e) === 304) return { listing, state: "unchanged" };
    const until = limitedUntil(e, Date.now());
    if (until !== null) return { listing, state: "limited", until };
    throw e;
  }
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

interface GlNote {
  id: number;
  body?: string;
  author?: { username: string; id: number };
  noteable_type?: string;
  noteable_iid?: number | null;
  position?: { new_path?: string | null; new_line?: number | null } | null;
  system?: boolean;
}

/** The day before `iso`, as GitLab's `after` takes it (events created after that date). */
const dayBefore = (iso: string) => new Date(time(iso) - 86_400_000).toISOString().slice(0, 10);

async function gitlabNotes(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
): Promise<ListingPoll> {
  const listing = "gitlab:notes";
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  const since = cursor?.since ?? new Date(fromMs).toISOString();
  const lastId = cursor?.last_id ? Number(cursor.last_id) : null;
  let events: Array<Record<string, unknown>>;
  try {
    events = (await api.Events.all({
      projectId: id,
      action: "commented",
      after: dayBefore(since),
      sort: "asc",
      perPage: PAGE,
      maxPages: 5,
    })) as Array<Record<string, unknown>>;
  } catch (e) {
    const until = limitedUntil(e, Date.now());
    if (until !== null) return { listing, state: "limited", until };
    throw e;
  }
  const fresh = events.filter((e) =>
    lastId !== null ? Number(e.id) > lastId : time(String(e.created_at)) >= time(since),
  );
  const repo = /^\d+$/.test(target.forgeRepo)
    ? String((await api.Projects.show(id)).path_with_namespace)
    : target.forgeRepo;
  const comments: PolledComment[] = [];
  const targets = new Map<string, { title: string; url: string; head: PolledComment["head"] }>();
  for (const e of fresh) {
    const note = e.note as GlNote | undefined;
    if (!note?.author || note.system || !note.noteable_iid) continue;
    const kind =
      note.noteable_type === "MergeRequest" ? "pull" : note.noteable_type === "Issue" ? "issue" : null;
    if (!kind) continue;
    const key = `${kind}#${note.noteable_iid}`;
    let on = targets.get(key);
    if (!on) {
      if (kind === "pull") {
        const mr = await unlessGone(api.MergeRequests.show(id, note.noteable_iid));
        if (!mr) continue;
        on = {
          title: String(mr.title),
          url: String(mr.web_url),
          head: { branch: String(mr.source_branch), fork: mr.source_project_id !== mr.target_project_id },
        };
      } else {
        const issue = await unlessGone(api.Issues.show(note.noteable_iid, { projectId: id }));
        if (!issue) continue;
        on = { title: String(issue.title), url: String(issue.web_url), head: null };
      }
      targets.set(key, on);
    }
    comments.push({
      kind: "note",
      id: String(note.id),
      repo,
      body: note.body ?? "",
      url: `${on.url}#note_${note.id}`,
      author: { login: note.author.username, id: String(note.author.id) },
      on: { kind, number: note.noteable_iid, title: on.title, url: on.url },
      head: on.head,
      review: note.position?.new_path
        ? { path: note.position.new_path, line: note.position.new_line ?? null, hunk: null }
        : null,
    });
  }
  const last = events.at(-1);
  const read = last && (lastId === null || Number(last.id) > lastId) ? last : null;
  return {
    listing,
    state: "read",
    comments,
    cursor: {
      since: read ? String(read.created_at) : since,
      last_id: read ? String(read.id) : (cursor?.last_id ?? null),
      etag: null,
    },
  };
}

interface GlLabelEvent {
  id: number;
  action?: string;
  created_at: string;
  user?: { username: string; id: number } | null;
  label?: { name?: string } | null;
}

/** The label `label` given to issues since the cursor (GitLab's issues, then their label events). */
async function gitlabIssueLabels(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
  label: string,
): Promise<ListingPoll> {
  const listing = "gitlab:issue_labels";
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  const since = cursor?.since ?? new Date(fromMs).toISOString();
  const lastId = cursor?.last_id ? Number(cursor.last_id) : null;
  let issues: Array<Record<string, unknown>>;
  try {
    issues = (await api.Issues.all({
      projectId: id,
      labels: label,
      updatedAfter: since,
      orderBy: "updated_at",
      sort: "asc",
      perPage: PAGE,
      maxPages: 1,
    })) as Array<Record<string, unknown>>;
  } catch (e) {
    const until = limitedUntil(e, Date.now());
    if (until !== null) return { listing, state: "limited", until };
    throw e;
  }
  const repo = /^\d+$/.test(target.forgeRepo)
    ? String((await api.Projects.show(id)).path_with_namespace)
    : target.forgeRepo;
  const comments: PolledComment[] = [];
  let next = since;
  let last = lastId;
  for (const issue of issues) {
    const iid = Number(issue.iid);
    const updated = String(issue.updated_at);
    if (time(updated) > time(next)) next = updated;
    const events = ((await unlessGone(api.IssueLabelEvents.all(id, iid))) ?? []) as GlLabelEvent[];
    for (const e of events) {
      const fresh = lastId !== null ? e.id > lastId : time(e.created_at) >= time(since);
      if (!fresh || e.action !== "add" || !e.user) continue;
      if ((e.label?.name ?? "").toLowerCase() !== label.toLowerCase()) continue;
      if (last === null || e.id > last) last = e.id;
      const author = issue.author as { username?: string } | undefined;
      comments.push({
        kind: "issue_label",
        id: String(e.id),
        repo,
        body: String(issue.description ?? ""),
        url: String(issue.web_url),
        author: { login: e.user.username, id: String(e.user.id) },
        on: { kind: "issue", number: iid, title: String(issue.title), url: String(issue.web_url) },
        head: null,
        review: null,
        label: { name: e.label?.name ?? label, issueAuthor: author?.username ?? "?" },
      });
    }
  }
  return {
    listing,
    state: "read",
    comments: comments.sort((a, b) => Number(a.id) - Number(b.id)),
    cursor: { since: next, last_id: last === null ? null : String(last), etag: null },
  };
}

/**
 * Reads a project's new comments from its forge, per listing, from each listing's cursor (or,
 * for a listing never read, from `fromMs`: polling's start), and the issues given `label` (GitHub
 * lists every label given: the front end tells which is its own). Failures other than the rate limit
 * are the catalogue's forge errors, never holding the token.
 */
export async function pollComments(
  target: ForgeTarget,
  cursors: Readonly<Record<string, PollCursor>>,
  fromMs: number,
  label: string,
): Promise<ListingPoll[]> {
  try {
    if (target.forge === "gitlab") {
      const notes = await gitlabNotes(target, cursors["gitlab:notes"], fromMs);
      if (notes.state === "limited") return [notes];
      return [notes, await gitlabIssueLabels(target, cursors["gitlab:issue_labels"], fromMs, label)];
    }
    const out: ListingPoll[] = [];
    for (const listing of ["github:issue_comments", "github:review_comments"] as const) {
      const read = await githubListing(target, listing, cursors[listing], fromMs);
      out.push(read);
      // The limit is the token's: the other listing would only be refused too.
      if (read.state === "limited") return out;
    }
    out.push(await githubIssueLabels(target, cursors["github:issue_events"], fromMs));
    return out;
  } catch (e) {
    throw forgeFailure(e, target);
  }
}
