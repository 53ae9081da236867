/**
 * The two layers of `repoGit` (git on agent-written repositories), each tried on its own with a
 * positive control: the planted configuration really runs its commands under plain git, and a
 * command run inside the jail really runs (it prints) while seeing nothing it should not.
 */
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { foreignRemoteKeys, neutralisingOverrides, repoGit } from "../../../src/engine/isolation/repoGit.js";
import { tempDir } from "../../support/engine.js";
import { jailAvailable } from "../../support/jail.js";
import { GIT_ENV, git } from "../orchestrations/repo.js";

const TOKEN = `xoxb-${"3".repeat(12)}-${"4".repeat(13)}-repogittesttoken`;
let dirs: string[] = [];
let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
});
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A script that appends its name to `out` whenever something runs it. */
function probeScript(dir: string, name: string, out: string): string {
  const file = path.join(dir, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> ${out}\ncat >/dev/null 2>&1\nexit 0\n`, { mode: 0o755 });
  return file;
}

/**
 * A repository whose `.git` holds everything an agent could plant that makes git run a command:
 * hooks, fsmonitor, a clean/smudge filter selected by attributes, a merge driver, an alternate
 * with an alternate-refs command; plus a side branch to merge and a clone to fetch from.
 */
async function plantedRepository() {
  const root = tempDir("codexpi-repogit-");
  dirs.push(root);
  const repo = path.join(root, "repo");
  const out = path.join(root, "fired.log");
  const scripts = path.join(root, "scripts");
  fs.mkdirSync(scripts);
  await git(root, "init", "-q", "-b", "main", repo);
  fs.writeFileSync(path.join(repo, "a.txt"), "base\n");
  fs.writeFileSync(path.join(repo, ".gitattributes"), "*.txt filter=planted merge=planted\n");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "base");
  await git(repo, "checkout", "-q", "-b", "side");
  fs.writeFileSync(path.join(repo, "a.txt"), "side\n");
  await git(repo, "commit", "-q", "-am", "side");
  await git(repo, "checkout", "-q", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "main\n");
  await git(repo, "commit", "-q", "-am", "main");
  const clone = path.join(root, "clone");
  await git(root, "clone", "-q", "--shared", repo, clone);
  fs.writeFileSync(path.join(clone, "b.txt"), "from the clone\n");
  await git(clone, "add", "-A");
  await git(clone, "commit", "-q", "-m", "clone");
  // The plant, as an agent writing the repository's `.git` would leave it.
  for (const hook of ["pre-commit", "post-commit", "post-merge", "reference-transaction", "post-checkout"])
    fs.copyFileSync(probeScript(scripts, hook, out), path.join(repo, ".git", "hooks", hook));
  fs.chmodSync(path.join(repo, ".git", "hooks"), 0o755);
  for (const f of fs.readdirSync(path.join(repo, ".git", "hooks")))
    fs.chmodSync(path.join(repo, ".git", "hooks", f), 0o755);
  const borrowed = path.join(repo, ".git", "borrowed");
  fs.mkdirSync(path.join(borrowed, "objects"), { recursive: true });
  fs.mkdirSync(path.join(borrowed, "refs"));
  fs.appendFileSync(path.join(repo, ".git", "objects", "info", "alternates"), `${borrowed}/objects\n`);
  const set = (k: string, v: string) => git(repo, "config", k, v);
  await set("core.fsmonitor", probeScript(scripts, "fsmonitor", out));
  await set("core.alternateRefsCommand", probeScript(scripts, "alternate-refs", out));
  await set("filter.planted.clean", probeScript(scripts, "filter-clean", out));
  await set("filter.planted.smudge", probeScript(scripts, "filter-smudge", out));
  await set("merge.planted.driver", `${probeScript(scripts, "merge-driver", out)} %O %A %B`);
  return { root, repo, clone, out };
}

const fired = (out: string) =>
  fs.existsSync(out) ? fs.readFileSync(out, "utf8").split("\n").filter(Boolean) : [];

/** What codexpi's merge and verification do to a repository: status, fetch, merge, commit, branch. */
async function engineOperations(
  run: (cwd: string, write: string[], args: string[]) => Promise<unknown>,
  r: {
    repo: string;
    clone: string;
  },
) {
  await run(r.repo, [r.repo], ["status", "--porcelain"]);
  await run(
    r.repo,
    [r.repo],
    ["fetch", "-q", "--no-tags", "--", r.clone, "+refs/heads/main:refs/heads/fetched"],
  );
  await run(r.repo, [r.repo], ["merge", "--no-ff", "--no-edit", "-q", "-m", "m", "side"]).catch(
    () => undefined,
  );
  await run(r.repo, [r.repo], ["merge", "--abort"]).catch(() => undefined);
  fs.writeFileSync(path.join(r.repo, "a.txt"), "changed\n");
  await run(r.repo, [r.repo], ["add", "-A"]);
  await run(r.repo, [r.repo], ["commit", "-q", "-m", "c"]);
  await run(r.repo, [r.repo], ["checkout", "-q", "-b", "other"]);
  await run(r.repo, [r.repo], ["branch", "-D", "fetched"]);
}

describe("repoGit: git on a repository an agent could have written", () => {
  it("positive control: plain git, as codexpi ran it before, runs every planted command", async () => {
    const r = await plantedRepository();
    await engineOperations(
      (cwd, _w, args) =>
        execa("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          stdin: "ignore",
          cwd,
          env: { ...process.env, ...GIT_ENV },
        }),
      r,
    );
    const log = fired(r.out);
    for (const name of [
      "fsmonitor",
      "alternate-refs",
      "filter-clean",
      "merge-driver",
      "pre-commit",
      "post-commit",
      "reference-transaction",
      "post-checkout",
    ])
      expect(log).toContain(name);
  });

  it("second layer alone (jail off): hooks, fsmonitor, filters, merge drivers and alternate-refs commands planted in .git run nothing", async () => {
    const r = await plantedRepository();
    await engineOperations((cwd, write, args) => repoGit({ jail: "off", cwd, write }, args), r);
    expect(fired(r.out)).toEqual([]);
    // The operations did happen: the commit, the fetched branch gone again, the new branch.
    expect(await git(r.repo, "symbolic-ref", "--short", "HEAD")).toBe("other");
    expect(await git(r.repo, "log", "-1", "--format=%s")).toBe("c");
  });

  it("both layers: the same operations in the jail run nothing either, and work", async (ctx) => {
    if (!jail) ctx.skip();
    const r = await plantedRepository();
    await engineOperations(
      (cwd, write, args) => repoGit({ jail: "bwrap", cwd, write, read: [r.clone] }, args),
      r,
    );
    expect(fired(r.out)).toEqual([]);
    expect(await git(r.repo, "log", "-1", "--format=%s")).toBe("c");
  });

  it("first layer alone: a command git does run in the jail sees no secret, no other directory and no network, and cannot write what it only reads", async (ctx) => {
    if (!jail) ctx.skip();
    const r = await plantedRepository();
    const server = net.createServer((s) => s.end()).listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as net.AddressInfo).port;
    const secret = path.join(r.root, "secret.txt");
    fs.writeFileSync(secret, "HOST-SECRET");
    // An alias is the one command-running setting codexpi's own calls never use: here it stands
    // for whatever a future git version might run that the second layer does not know of.
    const script = [
      `echo RAN`,
      `cat ${secret} 2>/dev/null`,
      `env`,
      `echo x > ${r.clone}/written.txt 2>/dev/null && echo WROTE-READ-ONLY`,
      `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo NETWORK`,
      `true`,
    ].join("; ");
    await git(r.repo, "config", "alias.probe", `!bash -c '${script}'`);
    const saved = process.env.SLACK_BOT_TOKEN;
    process.env.SLACK_BOT_TOKEN = TOKEN;
    try {
      const jailed = await repoGit({ jail: "bwrap", cwd: r.repo, write: [r.repo], read: [r.clone] }, [
        "probe",
      ]);
      expect(jailed).toContain("RAN"); // positive control: the command did run
      expect(jailed).not.toContain("HOST-SECRET");
      expect(jailed).not.toContain(TOKEN);
      expect(jailed).not.toContain("WROTE-READ-ONLY");
      expect(jailed).not.toContain("NETWORK");
      expect(fs.existsSync(path.join(r.clone, "written.txt"))).toBe(false);
      // Positive control: the same command without the jail reads the secret and reaches the port.
      const open = await repoGit({ jail: "off", cwd: r.repo, write: [r.repo] }, ["probe"]);
      expect(open).toContain("HOST-SECRET");
      expect(open).toContain("NETWORK");
    } finally {
      server.close();
      if (saved === undefined) delete process.env.SLACK_BOT_TOKEN;
      else process.env.SLACK_BOT_TOKEN = saved;
    }
  });

  it("a git command that outlives its limit is killed and fails, naming the limit; a quick one in the same place answers", async (ctx) => {
    const dir = tempDir("codexpi-repogit-timeout-");
    dirs.push(dir);
    await git(dir, "init", "-q", "-b", "main");
    // Opening a FIFO for reading waits for a writer that never comes: git hangs on it.
    await execa("mkfifo", [path.join(dir, "stuck")]);
    for (const mode of ["off", "bwrap"] as const) {
      if (mode === "bwrap" && !jail) ctx.skip();
      const access = { jail: mode, cwd: dir, timeoutMs: 1_000, fresh: true };
      // Positive control: the same command on a regular file answers within the limit.
      fs.writeFileSync(path.join(dir, "plain"), "[a]\n\tb = c\n");
      expect(await repoGit(access, ["config", "--file", "plain", "--list"])).toBe("a.b=c");
      const started = Date.now();
      await expect(repoGit(access, ["config", "--file", "stuck", "--list"])).rejects.toThrow(
        /timed out after 1000 ms/,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it("disarms every command-running key a repository's configuration names, whatever its case", () => {
    expect(
      neutralisingOverrides([
        "filter.lfs.clean",
        "filter.x.Smudge",
        "filter.x.process",
        "filter.x.required",
        "diff.pdf.textconv",
        "diff.x.command",
        "merge.ours.driver",
        "credential.https://example.com.helper",
        "remote.origin.uploadpack",
        "remote.origin.vcs",
        "pager.log",
        "submodule.lib.update",
        "core.gitProxy",
        "user.name",
        "core.autocrlf",
      ]),
    ).toEqual([
      "filter.lfs.clean=",
      "filter.x.Smudge=",
      "filter.x.process=",
      "filter.x.required=false",
      "diff.pdf.textconv=",
      "diff.x.command=",
      "merge.ours.driver=false",
      "credential.https://example.com.helper=",
      "remote.origin.uploadpack=",
      "remote.origin.vcs=",
      "pager.log=false",
      "submodule.lib.update=none",
      "core.gitProxy=",
    ]);
  });

  it("a command that reaches a remote runs only in a repository whose configuration is git's own: network keys, rewrites and includes are refused before git starts", async () => {
    expect(
      foreignRemoteKeys([
        "core.repositoryformatversion",
        "core.filemode",
        "core.bare",
        "http.curloptResolve",
        "http.sslCAInfo",
        "url.https://evil.example/.insteadOf",
        "remote.origin.pushurl",
        "include.path",
        "credential.helper",
      ]),
    ).toEqual([
      "http.curloptresolve",
      "http.sslcainfo",
      "url.https://evil.example/.insteadof",
      "remote.origin.pushurl",
      "include.path",
      "credential.helper",
    ]);
    const root = tempDir("codexpi-repogit-remote-");
    dirs.push(root);
    const bare = path.join(root, "bare.git");
    await git(root, "init", "-q", "--bare", bare);
    const target = path.join(root, "target.git");
    await git(root, "init", "-q", "--bare", target);
    // A remote command that only lists the (local) target's refs: no network is needed to try it.
    const ls = () =>
      repoGit({ jail: "off", cwd: bare, write: [target], remote: { protocols: [] } }, [
        "ls-remote",
        "--",
        target,
      ]);
    // Positive control: git's own configuration, the command runs.
    await expect(ls()).resolves.toBe("");
    await git(bare, "config", "http.curloptResolve", "github.com:443:127.0.0.1");
    await expect(ls()).rejects.toThrow(/runs only with codexpi's configuration.*http\.curloptresolve/);
    // The same repository for a local command (no remote): the key is harmless there and git runs.
    await expect(repoGit({ jail: "off", cwd: bare }, ["rev-parse", "--is-bare-repository"])).resolves.toBe(
      "true",
    );
  });
});
