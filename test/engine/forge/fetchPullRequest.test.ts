import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../../src/engine/api/model.js";
import { testEngine } from "../../support/engine.js";
import { type GitHttpServer, startGitHttpServer } from "../../support/gitHttpServer.js";
import { git, isolateGit } from "../orchestrations/repo.js";

// Issue 33, item 2: a fork's merge (pull) request's head is fetched from the base repository's own
// ref of it (GitLab's `refs/merge-requests/N/head`, GitHub's `refs/pull/N/head`) over http with
// the project's token, into codexpi's own branch `codexpi-fork/mr-N` (`pr-N`) of the checkout.

const TOKEN = "glpat-fork-fetch-0001";

describe("a fork's pull request head fetched into codexpi's own branch", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  let server: GitHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    await env?.close();
    server = env = undefined;
  });

  it("S-FORGE-68: on GitLab refs/merge-requests/N/head becomes codexpi-fork/mr-N and on GitHub refs/pull/N/head becomes codexpi-fork/pr-N, with the token over http; a request the remote has no ref for is refused and makes no branch", async () => {
    isolateGit();
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    const root = path.dirname(env.config.dataDir);
    const remotes = path.join(root, "remotes");
    fs.mkdirSync(remotes, { recursive: true });
    const bare = path.join(remotes, "app.git");
    await git(remotes, "init", "-q", "--bare", "-b", "main", bare);
    const checkout = env.project.path;
    await git(checkout, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(checkout, "app.txt"), "base\n");
    await git(checkout, "add", "app.txt");
    await git(checkout, "commit", "-q", "-m", "Base");
    await git(checkout, "checkout", "-q", "-b", "theirs");
    fs.writeFileSync(path.join(checkout, "fork.txt"), "from a fork\n");
    await git(checkout, "add", "fork.txt");
    await git(checkout, "commit", "-q", "-m", "A fork's change");
    const forkHead = await git(checkout, "rev-parse", "HEAD");
    await git(checkout, "checkout", "-q", "main");
    await git(
      checkout,
      "push",
      "-q",
      bare,
      "main",
      "theirs:refs/merge-requests/3/head",
      "theirs:refs/pull/4/head",
    );
    await git(checkout, "branch", "-q", "-D", "theirs");
    server = await startGitHttpServer({ root: remotes, user: "oauth2", token: TOKEN });
    await git(checkout, "remote", "add", "origin", `${server.url}/app.git`);
    const api = createEngineApi(env.engine);
    const name = env.project.name;
    const apiUrl = `${server.url.replace(/\/$/, "")}/api/v4`;
    await api.projects.setForge(CLI_ACTOR, name, {
      forge: "gitlab",
      forgeUrl: apiUrl,
      forgeRepo: "group/app",
    });
    await api.projects.setForgeToken(CLI_ACTOR, name, TOKEN);

    expect(await api.forge.fetchPullRequest(env.project.id, 3)).toBe("codexpi-fork/mr-3");
    expect(await git(checkout, "rev-parse", "refs/heads/codexpi-fork/mr-3")).toBe(forkHead);
    expect(await git(checkout, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(server.received.some((q) => q.authorization?.startsWith("Basic ") && q.status === 200)).toBe(true);
    expect(fs.readdirSync(path.join(env.config.dataDir, "fetch"))).toEqual([]);

    // No such merge request on the remote: refused, no branch made.
    await expect(api.forge.fetchPullRequest(env.project.id, 9)).rejects.toMatchObject({
      reason: "forge_fetch_failed",
    });
    expect(await git(checkout, "branch", "--list", "codexpi-fork/mr-9")).toBe("");

    // The same project named on GitHub (whose askpass user is x-access-token): its own ref name, its own branch.
    await server.close();
    server = await startGitHttpServer({ root: remotes, user: "x-access-token", token: TOKEN });
    await git(checkout, "remote", "set-url", "origin", `${server.url}/app.git`);
    await api.projects.setForge(CLI_ACTOR, name, {
      forge: "github",
      forgeUrl: `${server.url.replace(/\/$/, "")}/api/v3`,
      forgeRepo: "group/app",
    });
    expect(await api.forge.fetchPullRequest(env.project.id, 4)).toBe("codexpi-fork/pr-4");
    expect(await git(checkout, "rev-parse", "refs/heads/codexpi-fork/pr-4")).toBe(forkHead);
  });
});
