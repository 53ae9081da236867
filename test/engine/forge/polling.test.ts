import { afterEach, describe, expect, it } from "vitest";
import { isEngineError } from "../../../src/engine/errors.js";
import { type ListingPoll, pollComments } from "../../../src/engine/forge/index.js";
import { startFakeGitHub } from "../../support/fakeGitHub.js";
import { githubTime } from "../../support/fakeGitHubComments.js";
import { startFakeGitLab } from "../../support/fakeGitLab.js";

// Polling's reads (issue 33, item 1; src/engine/forge/polling.ts) through Octokit and Gitbeaker,
// against the fake GitHub and GitLab checking the documented request shapes.

const TOKEN = "forge-poll-token-5e7d1c3b2a";
const REPO = "acme/widgets";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function github() {
  const gh = await startFakeGitHub({ token: TOKEN, repos: [REPO] });
  closers.push(gh.close);
  return { gh, target: { forge: "github" as const, forgeUrl: gh.apiUrl, forgeRepo: REPO, token: TOKEN } };
}

const read = (r: ListingPoll | undefined) => {
  if (r?.state !== "read") throw new Error(`expected a read, got ${JSON.stringify(r)}`);
  return r;
};

describe("polling GitHub's comment listings", () => {
  it("S-FORGE-45: new conversation and review comments are read from polling's start with since, sort=updated, direction=asc; the same query is sent again with its ETag and a 304 reads nothing; an edit is no new comment; a newer comment is read (positive control)", async () => {
    const { gh, target } = await github();
    gh.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const start = Date.now() - 10_000;
    gh.discussion.add(REPO, 1, { login: "old", body: "before polling", at: new Date(start - 60_000) });
    const c = gh.discussion.add(REPO, 1, {
      login: "octocat",
      body: "@codexpi hi",
      at: new Date(start + 1_000),
    });
    gh.discussion.add(REPO, 1, {
      login: "octocat",
      body: "@codexpi rename here",
      at: new Date(start + 2_000),
      review: { path: "src/w.ts", line: 42, diff_hunk: "@@ -1 +1 @@" },
    });
    const [issues, reviews] = await pollComments(target, {}, start, "codexpi");
    const i = read(issues);
    expect(i.comments).toEqual([
      {
        kind: "issue_comment",
        id: String(c.id),
        repo: REPO,
        body: "@codexpi hi",
        url: c.html_url,
        author: { login: "octocat", id: "583231" },
        on: {
          kind: "pull",
          number: 1,
          title: "Rename the widget",
          url: `https://github.example/${REPO}/pull/1`,
        },
        head: null,
        review: null,
      },
    ]);
    expect(i.cursor.since).toBe(c.updated_at);
    // `since` moved on: the ETag answered another query and is not kept.
    expect(i.cursor.etag).toBeNull();
    const r = read(reviews);
    expect(r.comments).toMatchObject([
      {
        kind: "review_comment",
        head: { branch: "rename", fork: false },
        review: { path: "src/w.ts", line: 42, hunk: "@@ -1 +1 @@" },
      },
    ]);
    const q = new URL(gh.received.find((x) => x.url.includes("/issues/comments?"))!.url, "http://x")
      .searchParams;
    expect(Object.fromEntries(q)).toEqual({
      since: githubTime(new Date(Math.floor(start / 1000) * 1000)),
      sort: "updated",
      direction: "asc",
      per_page: "100",
    });

    // The next query (same since) is answered 200 with the boundary comment again, and an ETag kept…
    const cursors = { "github:issue_comments": i.cursor, "github:review_comments": r.cursor };
    const [again] = await pollComments(target, cursors, start, "codexpi");
    const a = read(again);
    expect(a.cursor.etag).toMatch(/^W\//);
    // …then the same query with If-None-Match is a 304: nothing read.
    const before = gh.received.length;
    const [unchanged] = await pollComments(
      target,
      { ...cursors, "github:issue_comments": a.cursor },
      start,
      "codexpi",
    );
    expect(unchanged).toEqual({ listing: "github:issue_comments", state: "unchanged" });
    const sent = gh.received.slice(before).find((x) => x.url.includes("/issues/comments?"))!;
    expect(sent.headers["if-none-match"]).toBe(a.cursor.etag);
    expect(sent.status).toBe(304);

    // An edit moves updated_at: the comment is listed again, but it is no new comment (the
    // comment at the cursor itself is given again: the journal keeps one delivery per id).
    await new Promise((res) => setTimeout(res, 1_100));
    const mid = gh.discussion.add(REPO, 1, { login: "octocat", body: "a remark" });
    const [moved] = await pollComments(target, { "github:issue_comments": a.cursor }, start, "codexpi");
    expect(read(moved).comments.map((x) => x.id)).toContain(String(mid.id));
    await new Promise((res) => setTimeout(res, 1_100));
    gh.discussion.edit(c.id, "@codexpi hi (edited)");
    const [edited] = await pollComments(
      target,
      { "github:issue_comments": read(moved).cursor },
      start,
      "codexpi",
    );
    const e = read(edited);
    expect(e.comments.map((x) => x.id)).not.toContain(String(c.id));
    expect(e.cursor.since).not.toBe(read(moved).cursor.since);
    // Positive control: a comment written after the cursor is read.
    const d = gh.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi more" });
    const [more] = await pollComments(target, { "github:issue_comments": e.cursor }, start, "codexpi");
    expect(read(more).comments.map((x) => x.id)).toContain(String(d.id));
  });

  it("S-FORGE-45: a comment whose pull request or issue is gone (404) is skipped, and the listing still reads the others", async () => {
    const { gh, target } = await github();
    gh.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const start = Date.now() - 10_000;
    const at = new Date(start + 1_000);
    gh.discussion.add(REPO, 99, { login: "octocat", body: "@codexpi on a deleted one", at });
    gh.discussion.add(REPO, 99, {
      login: "octocat",
      body: "@codexpi on a deleted line",
      at,
      review: { path: "a.ts", line: 1, diff_hunk: "@@" },
    });
    const kept = gh.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi here", at });
    const [issues, reviews] = await pollComments(target, {}, start, "codexpi");
    expect(read(issues).comments.map((c) => c.id)).toEqual([String(kept.id)]);
    expect(read(reviews).comments).toEqual([]);
    expect(read(reviews).cursor.since).toBe(githubTime(at));
  });

  it("S-FORGE-46: a spent rate limit (403 with X-RateLimit-Remaining 0, or 429 with Retry-After) makes the listing wait until the reset; another 403 is the catalogue's refusal, without the token", async () => {
    const { gh, target } = await github();
    const reset = Math.ceil(Date.now() / 1000) + 120;
    gh.discussion.refuseNext = {
      status: 403,
      body: { message: "API rate limit exceeded" },
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
    };
    const [spent] = await pollComments(target, {}, Date.now(), "codexpi");
    expect(spent).toEqual({ listing: "github:issue_comments", state: "limited", until: reset * 1000 });
    gh.discussion.refuseNext = {
      status: 429,
      body: { message: "You have exceeded a secondary rate limit" },
      headers: { "retry-after": "30" },
    };
    const now = Date.now();
    const [secondary] = await pollComments(target, {}, now, "codexpi");
    expect(secondary?.state).toBe("limited");
    const until = (secondary as { until: number }).until;
    expect(until).toBeGreaterThanOrEqual(now + 30_000);
    expect(until).toBeLessThan(now + 40_000);
    gh.discussion.refuseNext = { status: 403, body: { message: "Resource not accessible by integration" } };
    const refused = await pollComments(target, {}, Date.now(), "codexpi").catch((e: unknown) => e);
    expect(isEngineError(refused) && refused.reason).toBe("forge_forbidden");
    expect(JSON.stringify(refused)).not.toContain(TOKEN);
    expect(String((refused as Error).message)).not.toContain(TOKEN);
    // Positive control: unrefused, the listing is read.
    expect((await pollComments(target, {}, Date.now(), "codexpi"))[0]?.state).toBe("read");
  });
});

describe("polling GitHub's issue events", () => {
  it("S-FORGE-45: labels given to issues are read from the issue events after polling's start, each once, with who labelled and who wrote the issue; the same URL is sent again with its ETag and a 304 reads nothing; a later label is read (positive control)", async () => {
    const { gh, target } = await github();
    const start = Date.now() - 10_000;
    gh.discussion.label(REPO, 7, {
      login: "old",
      label: "codexpi",
      body: "old",
      at: new Date(start - 60_000),
    });
    const id = gh.discussion.label(REPO, 7, {
      login: "octocat",
      label: "codexpi",
      body: "Rename it",
      at: new Date(start + 1_000),
    });
    const events = (await pollComments(target, {}, start, "codexpi")).find(
      (r) => r.listing === "github:issue_events",
    );
    const e = read(events);
    expect(e.comments).toEqual([
      {
        kind: "issue_label",
        id: String(id),
        repo: REPO,
        body: "Rename it",
        url: `https://github.example/${REPO}/issues/7`,
        author: { login: "octocat", id: "583231" },
        on: {
          kind: "issue",
          number: 7,
          title: "The widget is misnamed",
          url: `https://github.example/${REPO}/issues/7`,
        },
        head: null,
        review: null,
        label: { name: "codexpi", issueAuthor: "reporter" },
      },
    ]);
    expect(e.cursor).toMatchObject({ last_id: String(id), etag: expect.stringMatching(/^W\//) });
    const before = gh.received.length;
    const again = (await pollComments(target, { "github:issue_events": e.cursor }, start, "codexpi")).at(-1);
    expect(again).toEqual({ listing: "github:issue_events", state: "unchanged" });
    const sent = gh.received.slice(before).find((x) => x.url.includes("/issues/events?"))!;
    expect(sent.headers["if-none-match"]).toBe(e.cursor.etag);
    expect(new URL(sent.url, "http://x").searchParams.get("per_page")).toBe("100");
    const later = gh.discussion.label(REPO, 8, { login: "octocat", label: "bug", body: "b" });
    const next = read(
      (await pollComments(target, { "github:issue_events": e.cursor }, start, "codexpi")).at(-1),
    );
    expect(next.comments.map((c) => c.id)).toEqual([String(later)]);
  });
});

describe("polling GitLab's comment events", () => {
  it("S-FORGE-47: notes are read from the project's events (action=commented, after a date, sort=asc), each once, with its merge request; a note older than polling is not", async () => {
    const gl = await startFakeGitLab({ token: TOKEN, projects: ["group/app"] });
    closers.push(gl.close);
    const target = { forge: "gitlab" as const, forgeUrl: gl.apiUrl, forgeRepo: "group/app", token: TOKEN };
    const iid = gl.addMergeRequest("group/app", { title: "Rename", source: "rename" });
    const start = Date.now() - 5_000;
    gl.events.add("group/app", iid, { username: "old", body: "before", at: new Date(start - 1_000) });
    const n = gl.events.add("group/app", iid, {
      username: "tanuki",
      body: "@codexpi fix",
      position: { new_path: "a.ts", new_line: 3 },
    });
    const [first] = await pollComments(target, {}, start, "codexpi");
    const f = read(first);
    expect(f.comments).toEqual([
      {
        kind: "note",
        id: String(n),
        repo: "group/app",
        body: "@codexpi fix",
        url: `https://gitlab.example/group/app/-/merge_requests/${iid}#note_${n}`,
        author: { login: "tanuki", id: "42" },
        on: {
          kind: "pull",
          number: iid,
          title: "Rename",
          url: `https://gitlab.example/group/app/-/merge_requests/${iid}`,
        },
        head: { branch: "rename", fork: false },
        review: { path: "a.ts", line: 3, hunk: null },
      },
    ]);
    const q = new URL(gl.received.find((x) => x.url.includes("/events?"))!.url, "http://x").searchParams;
    expect(q.get("action")).toBe("commented");
    expect(q.get("sort")).toBe("asc");
    expect(q.get("after")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [none] = await pollComments(target, { "gitlab:notes": f.cursor }, start, "codexpi");
    expect(read(none).comments).toEqual([]);
    // Positive control: a later note is read, alone.
    const later = gl.events.add("group/app", iid, { username: "tanuki", body: "@codexpi more" });
    const [next] = await pollComments(target, { "gitlab:notes": read(none).cursor }, start, "codexpi");
    expect(read(next).comments.map((c) => c.id)).toEqual([String(later)]);
  });

  it("S-FORGE-47: an issue given the project's label is read from the issues (labels, updated_after, order_by=updated_at, sort=asc) and their label events, with who labelled it; another label is not; once read, not again; a later one is (positive control)", async () => {
    const gl = await startFakeGitLab({ token: TOKEN, projects: ["group/app"] });
    closers.push(gl.close);
    const target = { forge: "gitlab" as const, forgeUrl: gl.apiUrl, forgeRepo: "group/app", token: TOKEN };
    const start = Date.now() - 5_000;
    const iid = gl.issues.add("group/app", 100, { title: "Misnamed", description: "Rename it" });
    gl.issues.label("group/app", iid, { username: "other", label: "bug" });
    const ev = gl.issues.label("group/app", iid, { username: "tanuki", label: "codexpi" });
    const [, labels] = await pollComments(target, {}, start, "codexpi");
    const l = read(labels);
    expect(l.comments).toEqual([
      {
        kind: "issue_label",
        id: String(ev),
        repo: "group/app",
        body: "Rename it",
        url: `https://gitlab.example/group/app/-/issues/${iid}`,
        author: { login: "tanuki", id: "42" },
        on: {
          kind: "issue",
          number: iid,
          title: "Misnamed",
          url: `https://gitlab.example/group/app/-/issues/${iid}`,
        },
        head: null,
        review: null,
        label: { name: "codexpi", issueAuthor: "reporter" },
      },
    ]);
    const q = new URL(gl.received.find((x) => /\/issues\?/.test(x.url))!.url, "http://x").searchParams;
    expect(q.get("labels")).toBe("codexpi");
    expect(q.get("order_by")).toBe("updated_at");
    expect(q.get("sort")).toBe("asc");
    expect(Number.isNaN(Date.parse(q.get("updated_after") ?? ""))).toBe(false);
    const [, again] = await pollComments(target, { "gitlab:issue_labels": l.cursor }, start, "codexpi");
    expect(read(again).comments).toEqual([]);
    const other = gl.issues.add("group/app", 100, { title: "Another", description: "More" });
    const later = gl.issues.label("group/app", other, { username: "tanuki", label: "CodexPi" });
    const [, next] = await pollComments(
      target,
      { "gitlab:issue_labels": read(again).cursor },
      start,
      "codexpi",
    );
    expect(read(next).comments.map((c) => c.id)).toEqual([String(later)]);
  });
});
