import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { fetchBranchInto } from "../../../src/engine/forge/fetchBranch.js";
import type { GitJailMode } from "../../../src/engine/isolation/index.js";
import { tempDir } from "../../support/engine.js";
import { type GitHttpServer, startGitHttpServer } from "../../support/gitHttpServer.js";
import { jailAvailable } from "../../support/jail.js";
import { git } from "../orchestrations/repo.js";

// Issue 33, item 3: a pull request's head branch is brought into the project's checkout through a
// bare repository of codexpi's own, with codexpi's askpass and token, never forced.

const TOKEN = "fetch-token-1a2b3c4d5e6f7a8b";
const USER = "x-access-token";
const BRANCH = "rename";
let dirs: string[] = [];
const servers: GitHttpServer[] = [];
let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A bare remote holding `main` and BRANCH (one commit ahead), served over http with TOKEN; a checkout of `main` only. */
async function fixture() {
  const root = tempDir("codexpi-fetch-");
  dirs.push(root);
  const remotes = path.join(root, "remotes");
  const bare = path.join(remotes, "widgets.git");
  await git(root, "init", "-q", "--bare", "-b", "main", bare);
  const seed = path.join(root, "seed");
  await git(root, "init", "-q", "-b", "main", seed);
  fs.writeFileSync(path.join(seed, "app.txt"), "base\n");
  await git(seed, "add", "-A");
  await git(seed, "commit", "-q", "-m", "base");
  await git(seed, "checkout", "-q", "-b", BRANCH);
  fs.writeFileSync(path.join(seed, "app.txt"), "renamed\n");
  await git(seed, "commit", "-q", "-am", "rename");
  await git(seed, "push", "-q", bare, "main", BRANCH);
  const checkout = path.join(root, "checkout");
  await git(root, "clone", "-q", "--single-branch", "-b", "main", bare, checkout);
  const server = await startGitHttpServer({ root: remotes, user: USER, token: TOKEN });
  servers.push(server);
  await git(checkout, "remote", "set-url", "origin", `${server.url}/widgets.git`);
  const dataDir = path.join(root, "data");
  fs.mkdirSync(dataDir);
  return { root, bare, seed, checkout, dataDir, server };
}

function filesHolding(dir: string, needle: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.lstatSync(f).isFile() && fs.readFileSync(f).includes(needle));
}

describe.each<GitJailMode>(["off", "bwrap"])("fetchBranchInto (jail %s)", (mode) => {
  const skipUnlessJail = (ctx: { skip: () => void }) => {
    if (mode === "bwrap" && !jail) ctx.skip();
  };
  const fetch = (f: Awaited<ReturnType<typeof fixture>>) =>
    fetchBranchInto({
      repoPath: f.checkout,
      remoteFrom: f.checkout,
      remote: "origin",
      branch: BRANCH,
      credential: { token: TOKEN },
      dataDir: f.dataDir,
      jail: mode,
    });

  it("S-FORGE-18: over http the branch is created in the checkout with the token given by codexpi's askpass, which lands nowhere else; the checkout keeps its branch out; a local branch with commits of its own is kept, one behind is moved on (never forced)", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    const remoteHead = await git(f.bare, "rev-parse", `refs/heads/${BRANCH}`);
    expect(await fetch(f)).toBe("created");
    expect(await git(f.checkout, "rev-parse", `refs/heads/${BRANCH}`)).toBe(remoteHead);
    expect(await git(f.checkout, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    const basic = `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString("base64")}`;
    expect(f.server.received.some((q) => q.authorization === basic && q.status === 200)).toBe(true);
    expect(filesHolding(f.checkout, TOKEN)).toEqual([]);
    expect(filesHolding(f.dataDir, TOKEN)).toEqual([]);
    expect(fs.readdirSync(path.join(f.dataDir, "fetch"))).toEqual([]);

    // The checkout's branch behind the remote: moved on as a fast-forward.
    fs.writeFileSync(path.join(f.seed, "more.txt"), "more\n");
    await git(f.seed, "add", "-A");
    await git(f.seed, "commit", "-q", "-m", "more");
    await git(f.seed, "push", "-q", f.bare, BRANCH);
    const moved = await git(f.bare, "rev-parse", `refs/heads/${BRANCH}`);
    expect(await fetch(f)).toBe("updated");
    expect(await git(f.checkout, "rev-parse", `refs/heads/${BRANCH}`)).toBe(moved);

    // A local commit of its own: the remote's next commit does not overwrite it.
    await git(f.checkout, "checkout", "-q", BRANCH);
    fs.writeFileSync(path.join(f.checkout, "mine.txt"), "mine\n");
    await git(f.checkout, "add", "-A");
    await git(f.checkout, "commit", "-q", "-m", "mine");
    await git(f.checkout, "checkout", "-q", "main");
    const mine = await git(f.checkout, "rev-parse", `refs/heads/${BRANCH}`);
    fs.writeFileSync(path.join(f.seed, "theirs.txt"), "theirs\n");
    await git(f.seed, "add", "-A");
    await git(f.seed, "commit", "-q", "-m", "theirs");
    await git(f.seed, "push", "-q", f.bare, BRANCH);
    expect(await fetch(f)).toBe("kept");
    expect(await git(f.checkout, "rev-parse", `refs/heads/${BRANCH}`)).toBe(mine);
  });

  it("S-FORGE-18: a repository the remote does not have is an error (`forge_fetch_failed`, naming the branch) when the checkout lacks the branch, and keeps the checkout's branch when it has one", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    await git(f.checkout, "remote", "set-url", "origin", `${f.server.url}/nowhere.git`);
    await expect(fetch(f)).rejects.toMatchObject({
      reason: "forge_fetch_failed",
      params: { branch: BRANCH },
    });
    expect(await git(f.checkout, "branch", "--list", BRANCH)).toBe("");
    await git(f.checkout, "branch", BRANCH);
    expect(await fetch(f)).toBe("kept");
  });
});
