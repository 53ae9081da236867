/**
 * Finding 6 (second half): `codex --version` in the health check used to run with the bot's whole
 * environment. A stand-in Codex binary records the environment it was given, through the real
 * bot's /healthz.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { slackBot } from "../support/slackBot.js";
import { tempDir } from "../support/engine.js";

const TOKEN = `xoxb-${"3".repeat(12)}-${"4".repeat(13)}-healthcheckprobe`;
let bot: Awaited<ReturnType<typeof slackBot>> | undefined;
const saved = { token: process.env.SLACK_BOT_TOKEN, secret: process.env.SLACK_SIGNING_SECRET };

afterEach(async () => {
  await bot?.close();
  bot = undefined;
  for (const [k, v] of [
    ["SLACK_BOT_TOKEN", saved.token],
    ["SLACK_SIGNING_SECRET", saved.secret],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("the health check's Codex process", () => {
  it("finding 6: `codex --version` gets an allow-listed environment, without the bot's Slack secrets", async () => {
    const dir = tempDir("codexpi-fake-codex-");
    const dump = path.join(dir, "env.txt");
    const fakeCodex = path.join(dir, "codex");
    fs.writeFileSync(fakeCodex, `#!/bin/sh\nenv > ${dump}\necho "codex-cli 0.0.0-probe"\n`, { mode: 0o755 });
    // The bot's own process holds its secrets in its environment, as under systemd's EnvironmentFile.
    process.env.SLACK_BOT_TOKEN = TOKEN;
    process.env.SLACK_SIGNING_SECRET = "healthcheck-signing-secret";
    bot = await slackBot({ env: { CODEX_BIN: fakeCodex } });
    const health = (await (await fetch(`${bot.metricsBase}/healthz`)).json()) as {
      codex: { version: string | null };
    };
    expect(health.codex.version).toBe("codex-cli 0.0.0-probe"); // positive control: our stand-in ran
    const seen = fs.readFileSync(dump, "utf8");
    expect(seen).toContain("PATH=");
    expect(seen).not.toContain("SLACK_");
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain("healthcheck-signing-secret");
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
});
