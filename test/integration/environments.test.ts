/**
 * Issue 31's "Done when", end to end through the real bot (signed HTTP, notifier, ticker), real
 * `codexpi worker` processes, the real Codex binary in the jail against the fake model, real git:
 *
 * - a restricted project in branch mode has a committed setup that installs a dependency from a
 *   fake package server on 127.0.0.1 (a host an admin listed), with a setup secret; the agent
 *   then runs the project's test command, which needs that dependency;
 * - the same agent's try at a second local server, not listed, is refused, named in the thread
 *   with the command that allows it, and that server receives nothing;
 * - the second conversation's lane starts from the cache: the package server is not asked again;
 * - restricted and full access, the agent finds no usable model credential in any file it can
 *   read, any variable or /proc, and no setup secret either, while the model answers (positive
 *   control: the same probe finds a marker that is there).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../src/engine/api/index.js";
import { addProject } from "../../src/engine/projects/index.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";
import { FAKE_KEY_VALUE } from "../support/codexHome.js";
import { credentialProbe } from "../support/credentialProbe.js";
import { inputText } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";

const SECRET_VALUE = "setup-secret-7f3a9c21e5";
const CONTROL = "CONTROL-MARKER-5b1e";
const PROBE = credentialProbe([FAKE_KEY_VALUE, SECRET_VALUE, CONTROL]);

type Bot = Awaited<ReturnType<typeof slackBot>>;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** An HTTP server on 127.0.0.1 answering `body`, counting the requests that reach it. */
async function localServer(body: string): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits += 1;
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** A branch-mode project whose committed setup fetches its dependency and records the secret's hash. */
async function projectWithSetup(b: Bot, name: string, pkgPort: number, fullAccess: boolean): Promise<string> {
  isolateGit();
  const root = path.join(path.dirname(b.config.dataDir), name);
  fs.mkdirSync(path.join(root, ".codexpi"), { recursive: true });
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(
    path.join(root, ".codexpi", "setup"),
    `#!/bin/sh
set -e
mkdir -p vendor
curl -fsS "http://127.0.0.1:${pkgPort}/leftpad.js" -o vendor/leftpad.js
printf '%s' "$SETUP_TOKEN" | sha256sum | cut -d' ' -f1 > .setup-secret-hash
`,
    { mode: 0o755 },
  );
  // The project's test command needs the dependency the setup installs.
  fs.writeFileSync(
    path.join(root, "test.sh"),
    `node -e "console.log(require('./vendor/leftpad.js')('x'))"\n`,
  );
  fs.writeFileSync(path.join(root, "control.txt"), `${CONTROL}\n`);
  fs.writeFileSync(path.join(root, ".gitignore"), "vendor/\n.setup-secret-hash\n");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "Base");
  await addProject(
    b.db,
    { now: () => Date.now() },
    { name, path: root, ownerId: OWNER, workspaceMode: "branch", fullAccess },
  );
  return root;
}

/** The output the agent's command `marker` returned, from the model's request that carried it. */
function outputOf(b: Bot, marker: string): string {
  const req = b.model.requests.filter((r) => inputText(r).includes(marker)).pop();
  return req ? inputText(req) : "";
}

describe("environments agents work in without holding a key (real bot, worker, Codex, jail)", () => {
  it("S-ENV-01: setup installs from a listed host with its secret, the agent's tests pass, an unlisted host is refused and named, the next lane starts from the cache, and no credential or secret is found", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const pkg = await localServer("module.exports = (s) => 'PADDED-' + s;\n");
    const other = await localServer("OTHER-SERVER-ANSWERED");
    const scripts = {
      "ENV-TEST": `sh test.sh; curl -sS -m 5 http://127.0.0.1:${other.port}/; echo; echo CURL-DONE`,
      "ENV-PROBE": PROBE,
      "ENV-AGAIN": "sh test.sh",
    };
    const b = await slackBot({ model: { respond: scriptedRespond(scripts) }, env: { CODEXPI_LOCALE: "en" } });
    closers.push(() => b.close());
    const api = createEngineApi(b.bot.engine);
    const admin = { userId: ADMIN, isAdmin: true };
    await projectWithSetup(b, "app", pkg.port, false);
    await projectWithSetup(b, "full", pkg.port, true);
    for (const name of ["app", "full"]) {
      // An admin lists the package server (a private address: admins only), and the secret.
      await api.projects.allowHosts(admin, name, [`127.0.0.1:${pkg.port}`]);
      await api.setup.setSecret(admin, name, "SETUP_TOKEN", SECRET_VALUE);
    }

    await b.command("ask app ENV-TEST run the tests", OWNER);
    const first = await eventually(
      async () => {
        const out = outputOf(b, "CURL-DONE");
        return out.includes("CURL-DONE") && out.includes("PADDED-x") ? out : null;
      },
      120_000,
      "the agent's test run",
    );
    // The setup ran once, with its secret; the agent's test found the dependency.
    expect(pkg.hits()).toBe(1);
    expect(first).toContain("PADDED-x");
    // The unlisted server: refused by the proxy, reached by nothing.
    expect(first).toContain("refused");
    expect(other.hits()).toBe(0);
    const laneDir = path.join(b.config.dataDir, "lanes");
    const hashFile = fs
      .readdirSync(laneDir, { recursive: true, withFileTypes: false })
      .map(String)
      .find((p) => p.endsWith("/.setup-secret-hash"));
    expect(hashFile).toBeDefined();
    expect(fs.readFileSync(path.join(laneDir, hashFile as string), "utf8").trim()).toBe(
      createHash("sha256").update(SECRET_VALUE).digest("hex"),
    );
    // Named once in the thread, with the command that allows it.
    const notice = await eventually(
      () => b.slack.messages().find((m) => (m.text ?? "").includes(`127.0.0.1:${other.port}`)),
      30_000,
      "the refusal in the thread",
    );
    expect(notice.text).toContain(`/codex project allow-host app 127.0.0.1:${other.port}`);
    expect(b.slack.messages().filter((m) => (m.text ?? "").includes(`127.0.0.1:${other.port}`))).toHaveLength(
      1,
    );
    const audited = await b.db
      .selectFrom("audit_events")
      .select(["action", "target", "outcome"])
      .where("action", "=", "egress.refused")
      .execute();
    expect(audited).toEqual([
      { action: "egress.refused", target: `127.0.0.1:${other.port}`, outcome: "refused" },
    ]);
    // Counted in /metrics (the loopback metrics listener), by project.
    const metrics = await (await fetch(`${b.metricsBase}/metrics`)).text();
    expect(metrics).toContain('codexpi_egress_refused_total{project="app"} 1');

    // A second conversation: its lane starts from the cache (the package server is not asked).
    await b.command("ask app ENV-AGAIN run the tests again", OWNER);
    await eventually(
      async () => {
        const rows = await b.db
          .selectFrom("prompt_queue")
          .select("status")
          .where("content", "like", "%ENV-AGAIN%")
          .execute();
        return rows.length === 1 && rows[0]?.status === "done";
      },
      120_000,
      "the second conversation",
    );
    expect(outputOf(b, "ENV-AGAIN")).toContain("PADDED-x");
    expect(pkg.hits()).toBe(1);

    // Restricted and full access: no credential, no setup secret; the control marker is found.
    for (const project of ["app", "full"]) {
      const before = b.model.requests.length;
      await b.command(`ask ${project} ENV-PROBE look around`, OWNER);
      const out = await eventually(
        async () => {
          const o = b.model.requests.slice(before).map(inputText).join("\n");
          return o.includes("TOKEN-VARS=") ? o : null;
        },
        120_000,
        `the probe in ${project}`,
      );
      expect(out).toMatch(/FOUND:CONT:files=[1-9]\d*:proc=0/); // positive control
      expect(out).toContain(`FOUND:${FAKE_KEY_VALUE.slice(0, 4)}:files=0:proc=0`);
      expect(out).toContain(`FOUND:${SECRET_VALUE.slice(0, 4)}:files=0:proc=0`);
      expect(out).toContain("TOKEN-VARS=0"); // Codex keeps its stand-in token from its commands
      // Positive control of /proc: unsandboxed, the agent does read its Codex's environment, where
      // the turn's stand-in token is (worth something only through this turn's gateway, until it ends).
      if (project === "full") expect(out).toMatch(/FOUND:CODE:files=0:proc=[1-9]/);
    }
    // The model answered every turn, always with the operator's key, added by the gateway.
    const bearers = new Set(
      b.model.log.filter((r) => r.path.endsWith("/responses")).map((r) => r.headers.authorization),
    );
    expect([...bearers]).toEqual([`Bearer ${FAKE_KEY_VALUE}`]);
  }, 300_000);
});
