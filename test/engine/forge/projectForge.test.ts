import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../../src/engine/api/model.js";
import {
  assertCanPublish,
  forgeCloneUrl,
  openProjectPullRequest,
  projectPublishing,
  projectPullRequestState,
  pushProjectBranch,
} from "../../../src/engine/forge/index.js";
import { testEngine } from "../../support/engine.js";
import { type FakeGitHub, startFakeGitHub } from "../../support/fakeGitHub.js";
import { startGitHttpServer } from "../../support/gitHttpServer.js";
import { jailAvailable } from "../../support/jail.js";
import { GIT_ENV, git } from "../orchestrations/repo.js";

// What the what-changed card's Push and Open pull request buttons run once the engine has checked
// who clicked: a project's settings and stored token applied (issue 18).

const TOKEN = "project-forge-token-1a2b3c4d";
const BRANCH = "codexpi/add-readme-77aa";
let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
});

describe("a project's push and pull request", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let gh: FakeGitHub | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
    await env?.close();
  });

  /** The project's checkout with `origin` a bare repository, and a lane cloned from it on BRANCH. */
  async function projectWithLane() {
    env = await testEngine();
    const checkout = env.project.path;
    const bare = path.join(env.dir, "remote.git");
    await git(env.dir, "init", "-q", "--bare", "-b", "main", bare);
    await git(checkout, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(checkout, "app.txt"), "base\n");
    await git(checkout, "add", "-A");
    await git(checkout, "commit", "-q", "-m", "base");
    await git(checkout, "remote", "add", "origin", bare);
    const lane = path.join(env.dir, "lane");
    await git(env.dir, "clone", "-q", checkout, lane);
    await git(lane, "checkout", "-q", "-b", BRANCH);
    fs.writeFileSync(path.join(lane, "README.md"), "# demo\n");
    await git(lane, "add", "-A");
    await git(lane, "commit", "-q", "-m", "readme");
    return {
      checkout,
      bare,
      lane,
      host: { dataDir: env.config.dataDir, jail: jail ? ("bwrap" as const) : ("off" as const) },
    };
  }

  it("S-FG-01: the lane's branch goes to the project's remote as its checkout names it", async () => {
    const p = await projectWithLane();
    const r = await pushProjectBranch(env.project, { repoPath: p.lane, branch: BRANCH }, p.host);
    expect(r).toEqual({ remoteUrl: p.bare, branch: BRANCH, upToDate: false });
    const pushed = await execa("git", ["--git-dir", p.bare, "rev-parse", `refs/heads/${BRANCH}`], {
      env: GIT_ENV,
    });
    expect(pushed.stdout.trim()).toBe(await git(p.lane, "rev-parse", BRANCH));
  });

  it("S-FG-02: the token goes only to the forge's own host: a checkout remote elsewhere is pushed to without it", async () => {
    const p = await projectWithLane();
    const api = createEngineApi(env.engine).projects;
    const server = await startGitHttpServer({ root: env.dir, user: "x-access-token", token: TOKEN });
    try {
      await git(p.checkout, "remote", "set-url", "origin", `${server.url}/remote.git`);
      await api.setForgeToken(CLI_ACTOR, "demo", TOKEN);
      // The forge's host is "localhost", the remote's 127.0.0.1: the token is withheld, the push refused.
      const elsewhere = await api.setForge(CLI_ACTOR, "demo", {
        forge: "github",
        forgeUrl: "http://localhost:1/api/v3",
        forgeRepo: "acme/widgets",
      });
      await expect(
        pushProjectBranch(elsewhere, { repoPath: p.lane, branch: BRANCH }, p.host),
      ).rejects.toMatchObject({
        reason: "forge_push_failed",
      });
      expect(server.received.filter((q) => q.authorization !== null)).toEqual([]);
      // Positive control: the forge on the remote's host gets the token, and the branch.
      const same = await api.setForge(CLI_ACTOR, "demo", { forgeUrl: "http://127.0.0.1:1/api/v3" });
      await pushProjectBranch(same, { repoPath: p.lane, branch: BRANCH }, p.host);
      expect(server.received.some((q) => q.authorization?.startsWith("Basic ") && q.status === 200)).toBe(
        true,
      );
      const pushed = await execa("git", ["--git-dir", p.bare, "rev-parse", `refs/heads/${BRANCH}`], {
        env: GIT_ENV,
      });
      expect(pushed.stdout.trim()).toBe(await git(p.lane, "rev-parse", BRANCH));
    } finally {
      await server.close();
    }
  });

  it("S-FG-04: the pull request opens on the project's forge with its stored token, and its state reads back", async () => {
    const p = await projectWithLane();
    const api = createEngineApi(env.engine).projects;
    gh = await startFakeGitHub({ token: TOKEN, repos: ["acme/widgets"], enterprise: true });
    await expect(
      openProjectPullRequest(env.project, { head: BRANCH, base: "main", title: "t", body: "b" }, p.host),
    ).rejects.toMatchObject({ reason: "forge_not_configured" });
    const project = await api.setForge(CLI_ACTOR, "demo", {
      forge: "github",
      forgeUrl: gh.apiUrl,
      forgeRepo: "acme/widgets",
    });
    await expect(
      openProjectPullRequest(project, { head: BRANCH, base: "main", title: "t", body: "b" }, p.host),
    ).rejects.toMatchObject({ reason: "forge_token_missing" });
    expect(gh.received).toEqual([]);
    await api.setForgeToken(CLI_ACTOR, null, TOKEN); // the install's token serves a project without its own
    const pr = await openProjectPullRequest(
      project,
      { head: BRANCH, base: "main", title: "Add a README", body: "Asked in Slack" },
      p.host,
    );
    expect(pr).toMatchObject({ number: 1, url: "https://github.example/acme/widgets/pull/1", state: "open" });
    expect(gh.received[0]?.url).toBe("/api/v3/repos/acme/widgets/pulls");
    expect(await projectPullRequestState(project, 1, p.host)).toEqual({ state: "open", url: pr.url });
  });

  it("S-CARD-12: what a project's lanes can publish is read where the push and the pull request read it (the checkout's remote, the forge settings, the stored token); the admin's view never holds the token", async () => {
    const p = await projectWithLane();
    const api = createEngineApi(env.engine).projects;
    await git(p.checkout, "remote", "remove", "origin");
    const none = { push: false, pullRequest: false, gap: "remote", remote: "origin" };
    expect(await projectPublishing(env.project, p.host)).toEqual(none);
    await expect(assertCanPublish(env.project, p.host, "push")).rejects.toMatchObject({
      reason: "lane_no_remote",
    });
    // A remote git names but codexpi does not push to (git://) is no remote either.
    await git(p.checkout, "remote", "add", "origin", "git://example.com/acme/widgets.git");
    expect(await projectPublishing(env.project, p.host)).toEqual(none);
    // A remote on github.com: the forge and repository are derived from it; no token yet.
    await git(p.checkout, "remote", "set-url", "origin", "https://github.com/acme/widgets.git");
    expect(await projectPublishing(env.project, p.host)).toMatchObject({ push: true, gap: "token" });
    await assertCanPublish(env.project, p.host, "push");
    await expect(assertCanPublish(env.project, p.host, "pullRequest")).rejects.toMatchObject({
      reason: "forge_token_missing",
    });
    // A local remote: Push, but no forge can be told from it until an admin names one.
    await git(p.checkout, "remote", "set-url", "origin", p.bare);
    expect(await projectPublishing(env.project, p.host)).toMatchObject({ push: true, gap: "forge" });
    await expect(assertCanPublish(env.project, p.host, "pullRequest")).rejects.toMatchObject({
      reason: "forge_not_configured",
    });
    await api.setForge(CLI_ACTOR, "demo", { forge: "github", forgeRepo: "acme/widgets" });
    await api.setForgeToken(CLI_ACTOR, "demo", TOKEN);
    const view = await api.forgeView(CLI_ACTOR, "demo");
    expect(view).toMatchObject({
      remote: "origin",
      remoteUrl: p.bare,
      set: { forge: "github", forgeUrl: null, forgeRepo: "acme/widgets" },
      effective: { forge: "github", forgeUrl: "https://api.github.com", forgeRepo: "acme/widgets" },
      token: "project",
      publishing: { push: true, pullRequest: true, gap: null },
    });
    expect(JSON.stringify(view)).not.toContain(TOKEN);
    await expect(api.forgeView({ userId: "UNOBODY", isAdmin: false }, "demo")).rejects.toMatchObject({
      reason: "admins_only",
    });
  });

  it("S-CARD-13: a checkout without a remote pushes to the forge's repository an admin named, with the token, once one is stored; the lane names the repository", async () => {
    const p = await projectWithLane();
    const api = createEngineApi(env.engine).projects;
    await git(p.checkout, "remote", "remove", "origin");
    const server = await startGitHttpServer({ root: env.dir, user: "x-access-token", token: TOKEN });
    try {
      fs.mkdirSync(path.join(env.dir, "acme"));
      await git(env.dir, "init", "-q", "--bare", "-b", "main", path.join(env.dir, "acme", "widgets.git"));
      const project = await api.setForge(CLI_ACTOR, "demo", {
        forge: "github",
        forgeUrl: `${server.url}/api/v3`,
        forgeRepo: "acme/widgets",
      });
      // Named, but no token: neither Push nor a pull request, and a push is refused before git.
      expect(await projectPublishing(project, p.host)).toMatchObject({ push: false, gap: "token" });
      await expect(assertCanPublish(project, p.host, "push")).rejects.toMatchObject({
        reason: "forge_token_missing",
      });
      expect(server.received).toEqual([]);
      await api.setForgeToken(CLI_ACTOR, "demo", TOKEN);
      expect(await projectPublishing(project, p.host)).toMatchObject({
        push: true,
        pullRequest: true,
        gap: null,
      });
      const r = await pushProjectBranch(project, { repoPath: p.lane, branch: BRANCH }, p.host);
      expect(r).toEqual({
        remoteUrl: `${server.url}/acme/widgets.git`,
        branch: BRANCH,
        upToDate: false,
        forgeRepo: "acme/widgets",
      });
      expect(server.received.some((q) => q.authorization?.startsWith("Basic ") && q.status === 200)).toBe(
        true,
      );
      const pushed = await execa(
        "git",
        ["--git-dir", path.join(env.dir, "acme", "widgets.git"), "rev-parse", `refs/heads/${BRANCH}`],
        { env: GIT_ENV },
      );
      expect(pushed.stdout.trim()).toBe(await git(p.lane, "rev-parse", BRANCH));
    } finally {
      await server.close();
    }
  });

  it("S-CARD-13: the forge's clone URL: github.com for api.github.com, the API's host and prefix otherwise, none for a GitLab numeric id", () => {
    const of = (forgeUrl: string, forgeRepo: string, forge: "github" | "gitlab" = "github") =>
      forgeCloneUrl({ forge, forgeUrl, forgeRepo });
    expect(of("https://api.github.com", "acme/widgets")).toBe("https://github.com/acme/widgets.git");
    expect(of("https://ghe.example/api/v3", "team/app")).toBe("https://ghe.example/team/app.git");
    expect(of("https://git.example/gitlab/api/v4", "g/sub/app", "gitlab")).toBe(
      "https://git.example/gitlab/g/sub/app.git",
    );
    expect(of("https://git.example/api/v4", "1234", "gitlab")).toBeNull();
  });
});
