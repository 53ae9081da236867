import net from "node:net";
import path from "node:path";
import fs from "node:fs";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { tempDir } from "../support/engine.js";
import { processesWithEnv } from "../support/processes.js";

const CLI = path.resolve("dist/bin/main.js");

/** What a person reads on stderr: pino's JSON lines aside. */
const message = (stderr: string) => stderr.split("\n").filter((l) => l.trim() && !l.startsWith("{"));

describe("codexpi serve start-up errors (real CLI, fake Slack)", () => {
  let slack: FakeSlack | undefined;
  let dir = "";
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  async function serve(env: Record<string, string>) {
    dir = tempDir();
    const started = Date.now();
    const r = await execa(process.execPath, [CLI, "serve"], {
      env: {
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_JAIL: "off",
        CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
        HOST: "127.0.0.1",
        PORT: "0",
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
        LOG_LEVEL: "warn",
        NO_PROXY: "127.0.0.1,localhost",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        CODEXPI_LOCALE: "en",
        ...env,
      },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    return { ...r, ms: Date.now() - started };
  }

  it("a revoked bot token exits non-zero at once with one line naming SLACK_BOT_TOKEN", async () => {
    slack = await startFakeSlack();
    slack.failNext("auth.test", { error: "invalid_auth" });
    const r = await serve({
      SLACK_BOT_TOKEN: "xoxb-revoked",
      SLACK_SIGNING_SECRET: "s",
      SLACK_API_URL: slack.apiUrl,
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    const lines = message(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("SLACK_BOT_TOKEN");
    expect(lines[0]).toContain("invalid_auth");
  });

  it("a rejected app token (Socket Mode) exits non-zero naming SLACK_APP_TOKEN instead of retrying forever", async () => {
    slack = await startFakeSlack();
    slack.failNext("apps.connections.open", { error: "invalid_auth" }, 5);
    const r = await serve({
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_APP_TOKEN: "xapp-wrong",
      SLACK_API_URL: slack.apiUrl,
    });
    expect(r.exitCode).toBe(1);
    // The standby worker it had started is gone with it (test/integration/worker.test.ts shows this
    // search finds one that is up): nothing keeps writing into the data directory.
    expect(processesWithEnv(`CODEXPI_DATA_DIR=${path.join(dir, "data")}`)).toEqual([]);
    const lines = message(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("SLACK_APP_TOKEN");
    expect(lines[0]).toContain("connections:write");
  });

  it("a token without a needed scope names the scope and manifest.yml", async () => {
    slack = await startFakeSlack();
    slack.failNext("auth.test", { error: "missing_scope" });
    const r = await serve({
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_SIGNING_SECRET: "s",
      SLACK_API_URL: slack.apiUrl,
    });
    expect(r.exitCode).toBe(1);
    expect(message(r.stderr)).toEqual([
      expect.stringMatching(/SLACK_BOT_TOKEN.*missing_scope.*manifest\.yml/),
    ]);
  });

  it("an unreachable Slack exits non-zero with one line naming the address", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await serve({
      SLACK_BOT_TOKEN: "xoxb-ok",
      SLACK_SIGNING_SECRET: "s",
      SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
    });
    expect(r.exitCode).toBe(1);
    const lines = message(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot reach Slack at http://127.0.0.1:${port}/api/`);
  });

  it("an invalid CODEXPI_TICK exits non-zero at once, naming it, before serving anything", async () => {
    const r = await serve({ CODEXPI_TICK: "every five seconds" });
    expect(r.exitCode).toBe(1);
    expect(r.ms).toBeLessThan(10_000);
    const lines = message(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("CODEXPI_TICK");
    expect(fs.existsSync(path.join(dir, "data", "codexpi.db"))).toBe(false);
  });
});
