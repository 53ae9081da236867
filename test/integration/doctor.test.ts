import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { findNetworkStack } from "../../src/engine/isolation/agentNetwork.js";
import { jailAvailable } from "../support/jail.js";
import { makeCodexHome } from "../support/codexHome.js";
import { startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { tempDir } from "../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

describe("codexpi doctor: a real model probe and Slack's tokens and scopes (real CLI and Codex)", () => {
  let model: FakeModel | undefined;
  let slack: FakeSlack | undefined;
  let dir = "";
  const homes: string[] = [];
  afterEach(async () => {
    await model?.close();
    await slack?.close();
    model = undefined;
    slack = undefined;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
  });

  /** What doctor recorded of its model probe in the data directory. */
  const probeRecord = () =>
    JSON.parse(fs.readFileSync(path.join(dir, "data", "model-probe.json"), "utf8")) as {
      ok: boolean;
      at: number;
    };

  async function doctor(modelUrl: string, extra: Record<string, string> = {}) {
    const home = await makeCodexHome(modelUrl);
    homes.push(home.dir);
    return execa(process.execPath, [CLI, "doctor"], {
      env: {
        ...home.env,
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_IDLE_TIMEOUT: "5",
        NO_PROXY: "127.0.0.1,localhost",
        LOG_LEVEL: "warn",
        CODEXPI_LOCALE: "en",
        ...extra,
      },
      reject: false,
      timeout: 120_000,
    });
  }

  it("passes with the fake model and a well-installed app (model, latency, scopes, app token)", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    dir = tempDir();
    model = await startFakeModel();
    slack = await startFakeSlack();
    const r = await doctor(model.url, {
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_APP_TOKEN: "xapp-ok",
      SLACK_API_URL: slack.apiUrl,
    });
    expect(r.stdout).toMatch(/^✓ model: gpt-5\.5 \(provider fake\) answered in [\d.]+ s/m);
    expect(r.stdout).toMatch(/^✓ slack: auth\.test ok/m);
    expect(r.stdout).toMatch(/^✓ slack scopes: every bot scope of manifest\.yml is granted/m);
    expect(r.stdout).toMatch(/^✓ slack app token: apps\.connections\.open ok/m);
    expect(r.stdout).not.toMatch(/^✗/m);
    expect(r.exitCode).toBe(0);
    // S-FH-03: the probe's verdict is kept for /healthz.
    expect(probeRecord()).toMatchObject({ ok: true });
    expect(model.requests.length).toBeGreaterThan(0);
    // Agents reach the model through the gateway, never its own port: no host port is bridged.
    if (findNetworkStack())
      expect(r.stdout).toMatch(
        /^✓ full-access network: agents have no network of their own .*host loopback ports every agent reaches: -$/m,
      );
    // An egress proxy starts and lets exactly a listed host through.
    expect(r.stdout).toMatch(
      /^✓ egress proxy: an agent's egress proxy starts here, lets a listed host through and refuses another$/m,
    );
    // The credential stays on the host (the fake provider's key variable).
    expect(r.stdout).toMatch(/^✓ credentials: the provider's key stays on the host/m);
  });

  it("warns, without failing, when full-access agents share the host's network (CODEXPI_NETNS=off)", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    dir = tempDir();
    model = await startFakeModel();
    slack = await startFakeSlack();
    const r = await doctor(model.url, {
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_APP_TOKEN: "xapp-ok",
      SLACK_API_URL: slack.apiUrl,
      CODEXPI_NETNS: "off",
    });
    expect(r.stdout).toMatch(
      /^! full-access network: CODEXPI_NETNS=off: full-access agents share the host's network namespace/m,
    );
    expect(r.exitCode).toBe(0);
  });

  it("with CODEXPI_RUNNER=app-server, doctor names the runner and probes the model through the app-server", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    dir = tempDir();
    model = await startFakeModel();
    const r = await doctor(model.url, { CODEXPI_RUNNER: "app-server" });
    expect(r.stdout).toMatch(/^✓ configuration: .*runner app-server/m);
    expect(r.stdout).toMatch(/^✓ model: gpt-5\.5 \(provider fake\) answered in [\d.]+ s/m);
    // Codex names its client in each model request: the probe went through the app-server.
    expect(model.log.find((x) => x.path.endsWith("/responses"))?.headers.originator).toBe("codexpi");
  });

  it("fails clearly with no model access (unreachable model URL), a missing scope and a wrong app token", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    dir = tempDir();
    slack = await startFakeSlack({ scopes: ["chat:write", "commands"] });
    slack.failNext("apps.connections.open", { error: "invalid_auth" });
    const started = Date.now();
    const r = await doctor(`http://127.0.0.1:${await closedPort()}/v1`, {
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_APP_TOKEN: "xapp-wrong",
      SLACK_API_URL: slack.apiUrl,
    });
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(r.exitCode).toBe(1);
    // A wrong endpoint is named as such, quickly, with Codex's error and where to correct it (S-FAIL-05).
    expect(r.stdout).toMatch(
      /^✗ model: gpt-5\.5 \(provider fake\) cannot be reached after [\d.]+ s: Connection failed: 127\.0\.0\.1:\d+ ECONNREFUSED\. Fix: check the provider's base_url in .*config\.toml/m,
    );
    expect(probeRecord()).toMatchObject({ ok: false }); // S-FH-03
    const probed = Number(/cannot be reached after ([\d.]+) s/.exec(r.stdout)?.[1]);
    expect(probed).toBeLessThan(20);
    expect(r.stdout).toMatch(
      /^✗ slack scopes: SLACK_BOT_TOKEN lacks app_mentions:read, .*files:read, files:write/m,
    );
    expect(r.stdout).toMatch(/^✗ slack scopes: .*lacks .*channels:join, channels:read, groups:read/m);
    // Thread context (docs/thread-context.md): group DMs' threads and whether the bot is in them.
    expect(r.stdout).toMatch(/^✗ slack scopes: .*lacks .*mpim:history.*mpim:read/m);
    expect(r.stdout).toMatch(
      /^✗ slack app token: apps\.connections\.open failed: invalid_auth.*SLACK_APP_TOKEN/m,
    );
  });
});

describe("codexpi doctor: a model Codex cannot authenticate to (real CLI)", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true, maxRetries: 10 });
  });

  async function doctorWith(home: { dir: string; env: Record<string, string> }, env: Record<string, string>) {
    const data = tempDir();
    made.push(home.dir, data);
    const started = Date.now();
    const r = await execa(process.execPath, [CLI, "doctor"], {
      env: {
        CODEX_HOME: home.dir,
        CODEXPI_DATA_DIR: path.join(data, "data"),
        CODEXPI_LOCALE: "en",
        CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
        ...env,
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    return { ...r, ms: Date.now() - started };
  }

  it("S-FAIL-05: says at once that Codex is not logged in, or that the provider's key variable is unset, and how to fix each", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const openAi = await makeCodexHome(url, { authFile: true }); // requires_openai_auth, no auth.json
    const notLoggedIn = await doctorWith(openAi, { PATH: process.env.PATH ?? "" });
    expect(notLoggedIn.stdout).toMatch(
      /^✗ model: .*Codex is not logged in .*Fix: `CODEX_HOME=\S+ \/\S+\/codex login`/m,
    );
    expect(notLoggedIn.ms).toBeLessThan(20_000);
    const keyed = await makeCodexHome(url);
    const noKey = await doctorWith(keyed, { PATH: process.env.PATH ?? "" });
    expect(noKey.stdout).toMatch(/^✗ model: .*the variable FAKE_OPENAI_API_KEY .* is not set\. Fix: set it/m);
    // Positive control: with its key, the probe goes on to the model (here: an endpoint that is not there).
    const withKey = await doctorWith(keyed, { PATH: process.env.PATH ?? "", ...keyed.env });
    expect(withKey.stdout).not.toMatch(/FAKE_OPENAI_API_KEY .*is not set/);
    expect(withKey.stdout).toMatch(/^✗ model: .*cannot be reached after/m);
  }, 120_000);
});

describe("codexpi doctor: the model's credential stays on the host", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true, maxRetries: 10 });
  });

  /** Doctor's credentials line for an install whose operator auth.json is `auth` and whose provider is OpenAI's. */
  async function credentialsLine(auth: object): Promise<string> {
    const root = tempDir();
    const home = await makeCodexHome("http://127.0.0.1:9/v1");
    made.push(root, home.dir);
    // OpenAI's own provider (no model_provider): the credential is auth.json's.
    fs.writeFileSync(path.join(home.dir, "config.toml"), 'model = "gpt-5.5"\n');
    fs.writeFileSync(path.join(home.dir, "auth.json"), JSON.stringify(auth), { mode: 0o600 });
    const env = {
      CODEX_HOME: home.dir,
      PATH: process.env.PATH ?? "",
      CODEXPI_DATA_DIR: path.join(root, "data"),
      CODEXPI_IDLE_TIMEOUT: "3",
      LOG_LEVEL: "warn",
      CODEXPI_LOCALE: "en",
      CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
    };
    const r = await execa(process.execPath, [CLI, "doctor"], {
      env,
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    return /^. credentials: .*$/m.exec(r.stdout)?.[0] ?? r.stdout;
  }

  it("names a ChatGPT login as refreshed on the host and an API key as kept there: no agent gets either", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const login = await credentialsLine({
      OPENAI_API_KEY: null,
      tokens: { id_token: "x", access_token: "y", refresh_token: "z", account_id: "a" },
      last_refresh: "2026-01-01T00:00:00Z",
    });
    expect(login).toMatch(
      /^✓ credentials: the ChatGPT login \(refreshed on the host\) stays on the host: .*chatgpt\.com/,
    );
    const key = await credentialsLine({ OPENAI_API_KEY: "sk-operator-000000" });
    expect(key).toMatch(/^✓ credentials: the OpenAI API key stays on the host: .*api\.openai\.com/);
    expect(key).not.toContain("sk-operator-000000");
  }, 180_000);
});
