import { afterEach, describe, expect, it } from "vitest";
import { isEngineError } from "../../../src/engine/errors.js";
import { openPullRequest, pullRequestState } from "../../../src/engine/forge/index.js";
import { t } from "../../../src/i18n/index.js";
import { startFakeGitHub } from "../../support/fakeGitHub.js";
import { startFakeGitLab } from "../../support/fakeGitLab.js";

const TOKEN = "forge-test-token-6f1c2a9d8e";
const WRONG = "wrong-token-00c0ffee11";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function github(enterprise = false) {
  const gh = await startFakeGitHub({ token: TOKEN, repos: ["acme/widgets"], enterprise });
  closers.push(gh.close);
  return gh;
}

async function gitlab() {
  const gl = await startFakeGitLab({ token: TOKEN, projects: ["acme/platform/widgets"] });
  closers.push(gl.close);
  return gl;
}

const request = {
  head: "codexpi/fix-login-a1b2",
  base: "main",
  title: "Fix the login",
  body: "Asked by <@U1> in Slack.",
};

/** The EngineError a promise rejects with, and everything it would show (message, params, JSON, catalogue). */
async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!isEngineError(e)) throw new Error(`expected an EngineError, got ${String(e)}`);
  const shown = [
    e.message,
    JSON.stringify(e.params),
    t("en", `reason.${e.reason}`, e.params),
    String(e.cause ?? ""),
  ].join("\n");
  return { e, shown };
}

describe("pull requests on GitHub (Octokit against a fake GitHub checking the documented shape)", () => {
  it("S-FG-04: opens a pull request with the documented request and answers its number, link and state", async () => {
    const gh = await github();
    const pr = await openPullRequest({
      forge: "github",
      forgeUrl: gh.apiUrl,
      forgeRepo: "acme/widgets",
      token: TOKEN,
      ...request,
    });
    expect(pr).toEqual({
      number: 1,
      url: "https://github.example/acme/widgets/pull/1",
      state: "open",
      existing: false,
    });
    const post = gh.received.find((r) => r.method === "POST");
    expect(post?.url).toBe("/repos/acme/widgets/pulls");
    expect(post?.status).toBe(201);
    expect(post?.body).toEqual({
      head: request.head,
      base: request.base,
      title: request.title,
      body: request.body,
    });
    expect(post?.headers.authorization).toMatch(new RegExp(`^(Bearer|token) ${TOKEN}$`));
    expect(post?.headers.accept).toMatch(/application\/vnd\.github/);
  });

  it("S-FG-04: GitHub Enterprise is reached under its /api/v3 base URL", async () => {
    const gh = await github(true);
    const pr = await openPullRequest({
      forge: "github",
      forgeUrl: gh.apiUrl,
      forgeRepo: "acme/widgets",
      token: TOKEN,
      ...request,
    });
    expect(pr.number).toBe(1);
    expect(gh.received.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/v3/repos/acme/widgets/pulls"]);
  });

  it("S-FG-05: a second request for the same branch answers the pull request already open (GitHub's 422)", async () => {
    const gh = await github();
    const target = { forge: "github" as const, forgeUrl: gh.apiUrl, forgeRepo: "acme/widgets", token: TOKEN };
    await openPullRequest({ ...target, ...request });
    const again = await openPullRequest({ ...target, ...request });
    expect(again).toMatchObject({
      number: 1,
      existing: true,
      url: "https://github.example/acme/widgets/pull/1",
    });
    expect(gh.received.map((r) => r.status)).toEqual([201, 422, 200]);
    expect(gh.received[2]?.url).toContain(`head=${encodeURIComponent(`acme:${request.head}`)}`);
    expect(gh.pulls("acme/widgets")).toHaveLength(1);
  });

  it("S-FG-06: the state is read back: open, then merged", async () => {
    const gh = await github();
    const target = { forge: "github" as const, forgeUrl: gh.apiUrl, forgeRepo: "acme/widgets", token: TOKEN };
    const pr = await openPullRequest({ ...target, ...request });
    expect(await pullRequestState(target, pr.number)).toEqual({ state: "open", url: pr.url });
    gh.merge("acme/widgets", pr.number);
    expect(await pullRequestState(target, pr.number)).toEqual({ state: "merged", url: pr.url });
  });

  it("S-FG-07: a wrong token is 'the forge refused the token', and no text of the error holds it", async () => {
    const gh = await github();
    const { e, shown } = await refusal(
      openPullRequest({
        forge: "github",
        forgeUrl: gh.apiUrl,
        forgeRepo: "acme/widgets",
        token: WRONG,
        ...request,
      }),
    );
    expect(e.reason).toBe("forge_token_refused");
    expect(t("en", "reason.forge_token_refused")).toBe("the forge refused the token");
    // Positive control: the token did travel to the forge, which refused it.
    expect(gh.received[0]?.headers.authorization).toContain(WRONG);
    expect(gh.received[0]?.status).toBe(401);
    expect(shown).not.toContain(WRONG);
    expect(shown).not.toContain(TOKEN);
  });

  it("S-FG-07: an unknown repository is 'not found or no access'", async () => {
    const gh = await github();
    const { e, shown } = await refusal(
      openPullRequest({
        forge: "github",
        forgeUrl: gh.apiUrl,
        forgeRepo: "acme/nope",
        token: TOKEN,
        ...request,
      }),
    );
    expect(e.reason).toBe("forge_repo_not_found");
    expect(shown).toContain("acme/nope");
    expect(shown).not.toContain(TOKEN);
  });

  it("S-FG-07: a forge that does not answer is 'unreachable', without the token", async () => {
    const gh = await github();
    await gh.close();
    const { e, shown } = await refusal(
      openPullRequest({
        forge: "github",
        forgeUrl: gh.apiUrl,
        forgeRepo: "acme/widgets",
        token: TOKEN,
        ...request,
      }),
    );
    expect(e.reason).toBe("forge_unreachable");
    expect(shown).not.toContain(TOKEN);
  });
});

describe("merge requests on GitLab (Gitbeaker against a fake GitLab checking the documented shape)", () => {
  it("S-FG-04: opens a merge request in a nested group: the path URL-encoded as :id, the documented body", async () => {
    const gl = await gitlab();
    const pr = await openPullRequest({
      forge: "gitlab",
      forgeUrl: gl.apiUrl,
      forgeRepo: "acme/platform/widgets",
      token: TOKEN,
      ...request,
    });
    expect(pr).toEqual({
      number: 1,
      url: "https://gitlab.example/acme/platform/widgets/-/merge_requests/1",
      state: "open",
      existing: false,
    });
    const post = gl.received.find((r) => r.method === "POST");
    expect(post?.url).toBe("/api/v4/projects/acme%2Fplatform%2Fwidgets/merge_requests");
    expect(post?.status).toBe(201);
    expect(post?.body).toEqual({
      source_branch: request.head,
      target_branch: request.base,
      title: request.title,
      description: request.body,
    });
    expect(post?.headers["private-token"] ?? post?.headers.authorization).toMatch(
      new RegExp(`^(Bearer )?${TOKEN}$`),
    );
  });

  it("S-FG-04: a numeric project id works too", async () => {
    const gl = await gitlab();
    const pr = await openPullRequest({
      forge: "gitlab",
      forgeUrl: gl.apiUrl,
      forgeRepo: "100",
      token: TOKEN,
      ...request,
    });
    expect(pr.number).toBe(1);
    expect(gl.received[0]?.url).toBe("/api/v4/projects/100/merge_requests");
  });

  it("S-FG-05 and S-FG-06: the one already open is answered (GitLab's 409); its state is read back", async () => {
    const gl = await gitlab();
    const target = {
      forge: "gitlab" as const,
      forgeUrl: gl.apiUrl,
      forgeRepo: "acme/platform/widgets",
      token: TOKEN,
    };
    const first = await openPullRequest({ ...target, ...request });
    const again = await openPullRequest({ ...target, ...request });
    expect(again).toMatchObject({ number: first.number, url: first.url, existing: true });
    expect(gl.received.map((r) => r.status)).toEqual([201, 409, 200]);
    expect(await pullRequestState(target, first.number)).toEqual({ state: "open", url: first.url });
    gl.merge("acme/platform/widgets", first.number);
    expect(await pullRequestState(target, first.number)).toEqual({ state: "merged", url: first.url });
  });

  it("S-FG-07: a wrong token is refused with the catalogue's sentence, which never holds it", async () => {
    const gl = await gitlab();
    const { e, shown } = await refusal(
      openPullRequest({
        forge: "gitlab",
        forgeUrl: gl.apiUrl,
        forgeRepo: "acme/platform/widgets",
        token: WRONG,
        ...request,
      }),
    );
    expect(e.reason).toBe("forge_token_refused");
    expect(gl.received[0]?.status).toBe(401);
    expect(JSON.stringify(gl.received[0]?.headers)).toContain(WRONG); // positive control
    expect(shown).not.toContain(WRONG);
  });
});

describe("the fake forges refuse what the real APIs refuse", () => {
  it("a malformed GitHub body is a 422, a malformed GitLab one a 400, a raw slash in GitLab's :id a 404", async () => {
    const gh = await github();
    const gl = await gitlab();
    const post = (url: string, headers: Record<string, string>, body: unknown) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const r1 = await post(
      `${gh.apiUrl}/repos/acme/widgets/pulls`,
      { authorization: `Bearer ${TOKEN}` },
      { head: "x", base: "main" },
    );
    expect(r1.status).toBe(422);
    const r2 = await post(
      `${gl.apiUrl}/projects/acme%2Fplatform%2Fwidgets/merge_requests`,
      { "private-token": TOKEN },
      { title: "t" },
    );
    expect(r2.status).toBe(400);
    const r3 = await post(
      `${gl.apiUrl}/projects/acme/platform/widgets/merge_requests`,
      { "private-token": TOKEN },
      {
        source_branch: "a",
        target_branch: "main",
        title: "t",
      },
    );
    expect(r3.status).toBe(404);
    // Positive control: the same request well formed is accepted.
    const r4 = await post(
      `${gh.apiUrl}/repos/acme/widgets/pulls`,
      { authorization: `token ${TOKEN}` },
      { head: "x", base: "main", title: "t" },
    );
    expect(r4.status).toBe(201);
  });
});
