import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isEngineError } from "../../../src/engine/errors.js";
import { pushBranch } from "../../../src/engine/forge/index.js";
import type { GitJailMode } from "../../../src/engine/isolation/index.js";
import { t } from "../../../src/i18n/index.js";
import { tempDir } from "../../support/engine.js";
import { pushTheOldWay } from "../../support/forgeAttack.js";
import { type GitHttpServer, startGitHttpServer } from "../../support/gitHttpServer.js";
import { jailAvailable } from "../../support/jail.js";
import { GIT_ENV, git } from "../orchestrations/repo.js";

const TOKEN = "push-token-8d7c6b5a4f3e2d1c";
const BRANCH = "codexpi/fix-login-a1b2";
const USER = "x-access-token";
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

/** A bare repository (the remote) and a clone with a commit on BRANCH, and codexpi's data dir. */
async function fixture() {
  const root = tempDir("codexpi-push-");
  dirs.push(root);
  const remotes = path.join(root, "remotes");
  const bare = path.join(remotes, "widgets.git");
  await git(root, "init", "-q", "--bare", "-b", "main", bare);
  const clone = path.join(root, "clone");
  await git(root, "init", "-q", "-b", "main", clone);
  fs.writeFileSync(path.join(clone, "app.txt"), "base\n");
  await git(clone, "add", "-A");
  await git(clone, "commit", "-q", "-m", "base");
  await git(clone, "checkout", "-q", "-b", BRANCH);
  fs.writeFileSync(path.join(clone, "app.txt"), "fixed\n");
  await git(clone, "commit", "-q", "-am", "fix");
  const dataDir = path.join(root, "data");
  fs.mkdirSync(dataDir);
  return { root, remotes, bare, clone, dataDir };
}

async function httpServer(root: string, token = TOKEN) {
  const s = await startGitHttpServer({ root, user: USER, token });
  servers.push(s);
  return s;
}

/** The commit a bare repository's branch points at, or null. */
async function remoteHead(bare: string, branch = BRANCH): Promise<string | null> {
  const r = await execa("git", ["--git-dir", bare, "rev-parse", "--verify", "-q", `refs/heads/${branch}`], {
    env: GIT_ENV,
    reject: false,
  });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Every regular file under `dir` that contains `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.lstatSync(f).isFile() && fs.readFileSync(f).includes(needle));
}

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!isEngineError(e)) throw new Error(`expected an EngineError, got ${String(e)}`);
  return {
    e,
    shown: [e.message, JSON.stringify(e.params), t("en", `reason.${e.reason}`, e.params)].join("\n"),
  };
}

describe.each<GitJailMode>(["off", "bwrap"])("pushBranch (jail %s)", (mode) => {
  const skipUnlessJail = (ctx: { skip: () => void }) => {
    if (mode === "bwrap" && !jail) ctx.skip();
  };

  it("S-FG-01: pushing creates the branch on a bare repository on disk (no credential)", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    await git(f.clone, "remote", "add", "origin", f.bare);
    expect(await remoteHead(f.bare)).toBeNull();
    const r = await pushBranch({
      repoPath: f.clone,
      remote: "origin",
      branch: BRANCH,
      credential: null,
      dataDir: f.dataDir,
      jail: mode,
    });
    expect(r).toEqual({ remoteUrl: f.bare, branch: BRANCH, upToDate: false });
    expect(await remoteHead(f.bare)).toBe(await git(f.clone, "rev-parse", BRANCH));
    // Only the branch asked for: main stays unpushed.
    expect(await remoteHead(f.bare, "main")).toBeNull();
    // The same push again sends nothing, and says so (a forge turn's reply tells them apart).
    const again = await pushBranch({
      repoPath: f.clone,
      remote: "origin",
      branch: BRANCH,
      credential: null,
      dataDir: f.dataDir,
      jail: mode,
    });
    expect(again.upToDate).toBe(true);
  });

  it("S-FG-02: over http the askpass helper hands the token to git, and the token lands nowhere else", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    const server = await httpServer(f.remotes);
    await git(f.clone, "remote", "add", "origin", `${server.url}/widgets.git`);
    const r = await pushBranch({
      repoPath: f.clone,
      remote: "origin",
      branch: BRANCH,
      credential: { token: TOKEN },
      dataDir: f.dataDir,
      jail: mode,
    });
    expect(await remoteHead(f.bare)).toBe(await git(f.clone, "rev-parse", BRANCH));
    // Positive control: the token did reach the server, as Basic credentials given by the askpass helper.
    const basic = `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString("base64")}`;
    expect(server.received.some((q) => q.authorization === basic && q.status === 200)).toBe(true);
    expect(server.received.some((q) => q.method === "POST" && q.url.endsWith("git-receive-pack"))).toBe(true);
    // Nowhere else: not in the repository (its config included), not in the data dir (askpass script, spills), not in the answer.
    expect(filesHolding(f.clone, TOKEN)).toEqual([]);
    expect(fs.readFileSync(path.join(f.clone, ".git", "config"), "utf8")).not.toContain(TOKEN);
    expect(filesHolding(f.dataDir, TOKEN)).toEqual([]);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  it("S-FG-02: a token the server refuses is a catalogue error holding neither the token nor the URL's secrets", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    const server = await httpServer(f.remotes, "the-server-wants-another-token");
    await git(f.clone, "remote", "add", "origin", `${server.url}/widgets.git`);
    const { e, shown } = await refusal(
      pushBranch({
        repoPath: f.clone,
        remote: "origin",
        branch: BRANCH,
        credential: { token: TOKEN },
        dataDir: f.dataDir,
        jail: mode,
      }),
    );
    expect(e.reason).toBe("forge_push_failed");
    const basic = `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString("base64")}`;
    expect(server.received.some((q) => q.authorization === basic && q.status === 401)).toBe(true); // positive control
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(basic.slice(6));
    expect(await remoteHead(f.bare)).toBeNull();
  });

  it("S-FG-02: the remote is read from `remoteFrom`: a lane's own config cannot send the branch and the token elsewhere", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    const server = await httpServer(f.remotes);
    const elsewhere = path.join(f.root, "elsewhere");
    fs.mkdirSync(elsewhere);
    await git(f.root, "init", "-q", "--bare", path.join(elsewhere, "widgets.git"));
    const attacker = await httpServer(elsewhere);
    const project = path.join(f.root, "project");
    await git(f.root, "init", "-q", "-b", "main", project);
    await git(project, "remote", "add", "origin", `${server.url}/widgets.git`);
    // The agent rewrote its lane's remote.
    await git(f.clone, "remote", "add", "origin", `${attacker.url}/widgets.git`);
    const push = (remoteFrom?: string) =>
      pushBranch({
        repoPath: f.clone,
        remote: "origin",
        branch: BRANCH,
        credential: { token: TOKEN },
        remoteFrom,
        dataDir: f.dataDir,
        jail: mode,
      });
    await push(project);
    expect(await remoteHead(f.bare)).not.toBeNull();
    expect(attacker.received).toEqual([]);
    // Positive control: read from the lane itself, the push (and the token) go where the lane says.
    await push();
    expect(attacker.received.some((q) => q.authorization?.startsWith("Basic "))).toBe(true);
  });

  it("S-FG-02: a URL rewrite planted in the lane does not apply: the push runs from codexpi's own repository (positive control: run in the lane, git goes elsewhere)", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    const server = await httpServer(f.remotes);
    const elsewhere = path.join(f.root, "elsewhere");
    fs.mkdirSync(elsewhere);
    await git(f.root, "init", "-q", "--bare", path.join(elsewhere, "widgets.git"));
    const attacker = await httpServer(elsewhere);
    const project = path.join(f.root, "project");
    await git(f.root, "init", "-q", "-b", "main", project);
    await git(project, "remote", "add", "origin", `${server.url}/widgets.git`);
    await git(f.clone, "config", `url.${attacker.url}/.pushInsteadOf`, `${server.url}/`);
    await git(f.clone, "config", "http.curloptResolve", "127.0.0.1:1:127.0.0.2");
    await pushBranch({
      repoPath: f.clone,
      remote: "origin",
      branch: BRANCH,
      credential: { token: TOKEN },
      remoteFrom: project,
      dataDir: f.dataDir,
      jail: mode,
    });
    expect(await remoteHead(f.bare)).toBe(await git(f.clone, "rev-parse", BRANCH));
    expect(server.received.some((q) => q.authorization?.startsWith("Basic ") && q.status === 200)).toBe(true);
    expect(attacker.received).toEqual([]);
    // The repository pushed from was codexpi's own, made for this push and removed after it.
    expect(fs.readdirSync(path.join(f.dataDir, "push"))).toEqual([]);
    // Positive control: git run in the lane, as before, follows the rewrite (and the askpass helper,
    // seeing another origin, gives it no credentials).
    const old = await pushTheOldWay({
      repo: f.clone,
      url: `${server.url}/widgets.git`,
      branch: BRANCH,
      token: TOKEN,
      username: USER,
      dataDir: f.dataDir,
    });
    expect(old.exitCode).not.toBe(0);
    expect(attacker.received.length).toBeGreaterThan(0);
    expect(attacker.received.filter((q) => q.authorization !== null)).toEqual([]);
  });

  it("a plain-http remote elsewhere than this machine is refused before anything is sent", async (ctx) => {
    skipUnlessJail(ctx);
    const f = await fixture();
    await git(f.clone, "remote", "add", "origin", "http://forge.example.invalid/acme/widgets.git");
    const { e } = await refusal(
      pushBranch({
        repoPath: f.clone,
        remote: "origin",
        branch: BRANCH,
        credential: { token: TOKEN },
        dataDir: f.dataDir,
        jail: mode,
      }),
    );
    expect(e.reason).toBe("forge_remote_insecure");
  });
});

describe("pushBranch runs nothing the clone planted", () => {
  /** A script that appends its name to `out` whenever something runs it. */
  function probe(dir: string, name: string, out: string): string {
    const file = path.join(dir, `${name}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> ${out}\nexit 1\n`, { mode: 0o755 });
    return file;
  }

  async function planted() {
    const f = await fixture();
    const out = path.join(f.root, "fired.log");
    const scripts = path.join(f.root, "scripts");
    fs.mkdirSync(scripts);
    for (const hook of ["pre-push"]) {
      fs.copyFileSync(probe(scripts, hook, out), path.join(f.clone, ".git", "hooks", hook));
      fs.chmodSync(path.join(f.clone, ".git", "hooks", hook), 0o755);
    }
    const server = await httpServer(f.remotes);
    await git(f.clone, "remote", "add", "origin", f.bare);
    await git(f.clone, "remote", "add", "web", `${server.url}/widgets.git`);
    await git(f.clone, "remote", "add", "ssh", "ssh://git@forge.example.invalid/acme/widgets.git");
    await git(f.clone, "config", "core.fsmonitor", probe(scripts, "fsmonitor", out));
    await git(f.clone, "config", "core.sshCommand", probe(scripts, "ssh-command", out));
    await git(f.clone, "config", "credential.helper", probe(scripts, "credential-helper", out));
    await git(f.clone, "config", "remote.origin.receivepack", probe(scripts, "receive-pack", out));
    const fired = () => (fs.existsSync(out) ? fs.readFileSync(out, "utf8").split("\n").filter(Boolean) : []);
    return { ...f, fired, server };
  }

  it("positive control: plain git pushing from the clone runs the planted hooks and commands", async () => {
    const f = await planted();
    const plain = (...args: string[]) =>
      execa("git", args, {
        cwd: f.clone,
        env: { ...process.env, ...GIT_ENV, GIT_TERMINAL_PROMPT: "0" },
        reject: false,
        stdin: "ignore",
        timeout: 20_000,
      });
    await plain("status", "--porcelain");
    await plain("push", "--no-verify", "origin", BRANCH);
    await plain("push", "origin", BRANCH);
    await plain("push", f.bare, BRANCH);
    await plain("push", "ssh", BRANCH);
    await plain("push", "web", BRANCH);
    expect(new Set(f.fired())).toEqual(
      new Set(["fsmonitor", "pre-push", "ssh-command", "credential-helper", "receive-pack"]),
    );
  });

  it.for<GitJailMode>(["off", "bwrap"])(
    "S-FG-03: pushBranch (jail %s) to a local, an http and an ssh remote runs no hook, fsmonitor, ssh command, credential helper or receive-pack",
    async (mode, ctx) => {
      if (mode === "bwrap" && !jail) ctx.skip();
      const f = await planted();
      const push = (remote: string) =>
        pushBranch({
          repoPath: f.clone,
          remote,
          branch: BRANCH,
          credential: { token: TOKEN },
          dataDir: f.dataDir,
          jail: mode,
        });
      await push("origin");
      expect(await remoteHead(f.bare)).not.toBeNull(); // the push happened
      await push("web");
      await refusal(push("ssh")); // no such host: the push fails, and ran nothing planted on the way
      expect(f.fired()).toEqual([]);
    },
  );
});
