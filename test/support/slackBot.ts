import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { startBot, type RunningBot } from "../../src/bot/server.js";
import type { IntakeTiming } from "../../src/bot/intake/intake.js";
import { parseConfig, type Config } from "../../src/config.js";
import type { WorkerSpawner } from "../../src/engine/dispatch/dispatcher.js";
import { addProject } from "../../src/engine/projects/index.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { processSpawner } from "../../src/engine/dispatch/spawner.js";
import { openDatabase, openMigrated } from "../../src/engine/database.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
import { createLogger, type Logger } from "../../src/logger.js";
import { onTestFailed } from "vitest";
import type { Clock } from "../../src/engine/clock.js";
import { FAKE_KEY_ENV, makeCodexHome } from "./codexHome.js";
import { killRecorded } from "./codexEngine.js";
import { tempDir } from "./engine.js";
import { type FakeModelOptions, startFakeModel } from "./fakeModel.js";
import { startFakeSlack } from "./fakeSlack.js";
import {
  blockActionPayload,
  eventBody,
  interactionBody,
  postSigned,
  slashCommandBody,
  viewSubmissionPayload,
} from "./slackRequests.js";
import { removeTree } from "./removeTree.js";
import { testDatabase } from "./testDatabase.js";

export const SECRET = "test-signing-secret";
export const TEAM = "T0001";
export const ADMIN = "UADMIN";
export const OWNER = "UOWNER";
export const OTHER = "UOTHER";

/**
 * The whole bot as `codexpi serve` runs it (real Bolt app over signed HTTP, notifier, ticker,
 * real workers and the real Codex binary), with Slack and the model faked on 127.0.0.1.
 */
export async function slackBot(
  opts: {
    socket?: boolean;
    env?: Record<string, string>;
    logger?: Logger;
    /** The intake's waits (an early reply's bound, the retry period). */
    intake?: Partial<IntakeTiming>;
    /** Replaces the real worker processes (e.g. workers run in the test process, with seams). */
    spawner?: (config: Config) => WorkerSpawner;
    /** Whether the fake workspace allows Slack streams (default: it refuses them). */
    streaming?: boolean;
    /** How the fake model answers (default: "ok" to everything not queued). */
    model?: FakeModelOptions;
    /** The engine's clock (default: the system's); a test moving it jumps schedules' minutes. */
    clock?: Clock;
  } = {},
) {
  const slack = await startFakeSlack({ teamId: TEAM, streaming: opts.streaming ?? false });
  const model = await startFakeModel(opts.model);
  const home = await makeCodexHome(model.url);
  const dir = tempDir();
  // SQLite: the data dir's default file; PostgreSQL: a database of its own (CODEXPI_TEST_DB).
  const database = await testDatabase(dir);
  const env: Record<string, string> = {
    ...database.env,
    // The language the tests built on this helper assert (written when French was the default):
    // set explicitly since the default became English (S-LANG-01); a test may override it.
    CODEXPI_LOCALE: "fr",
    CODEXPI_DATA_DIR: path.join(dir, "data"),
    CODEX_HOME: home.dir,
    CODEXPI_AGENT_ENV: FAKE_KEY_ENV,
    SLACK_BOT_TOKEN: "xoxb-test",
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_TEAM_ID: TEAM,
    CODEXPI_ADMINS: ADMIN,
    PORT: "0",
    HOST: "127.0.0.1",
    HEALTH_PORT: "0",
    CODEXPI_METRICS_PORT: "0",
    CODEXPI_TICK: "*/1 * * * * *",
    CODEXPI_IDLE_TIMEOUT: "60",
    // Workers log to data/logs/ (kept for a failure's report, below).
    LOG_LEVEL: "info",
    ...(opts.socket ? { SLACK_APP_TOKEN: "xapp-test" } : {}),
    ...opts.env,
  };
  const config = parseConfig(env);
  const diagnostics = failureDiagnostics(config.dataDir);
  const logger = opts.logger ?? diagnostics.logger;
  // On PostgreSQL the test's database is a copy of the migrated template.
  const db =
    database.target.dialect === "postgres"
      ? openDatabase(database.target)
      : await openMigrated(config.databasePath);
  const projectDir = path.join(dir, "demo");
  fs.mkdirSync(projectDir);
  const project = await addProject(
    db,
    { now: () => Date.now() },
    { name: "demo", path: projectDir, ownerId: OWNER, workspaceMode: "direct" },
  );
  await updateGlobalPolicy(
    db,
    { now: () => Date.now() },
    {
      max_concurrent: 4,
      load_pause_percent: 1000,
      memory_pause_percent: 100,
      background_start_hour: 0,
      background_end_hour: 0,
    },
    "test",
  );
  await db.destroy();
  const spawnerOf = () =>
    opts.spawner?.(config) ??
    processSpawner(config, { ...process.env, ...home.env, NO_PROXY: "127.0.0.1,localhost" });
  const clock = opts.clock ? { clock: opts.clock } : {};
  const bot: RunningBot = await startBot(
    config,
    logger,
    { spawner: spawnerOf(), host: fixedHostLoad(), ...clock },
    { intake: { timing: opts.intake } },
  );
  let base = `http://127.0.0.1:${bot.slack?.port ?? 0}`;
  let responses = 0;
  return {
    slack,
    model,
    bot,
    config,
    project,
    db: bot.engine.db,
    base,
    /** The loopback metrics listener: /metrics and the detailed /healthz without credentials. */
    metricsBase: `http://127.0.0.1:${bot.metricsPort ?? 0}`,
    /** The environment the bot was configured from (for the CLI on the same data). */
    env,
    /** What the bot's workers get for Codex (its home and the fake model's key): another machine's too. */
    codexEnv: home.env,
    /** Sends the requests that follow to another bot's Slack port (one `another` started). */
    sendTo(other: RunningBot) {
      base = `http://127.0.0.1:${other.slack?.port ?? 0}`;
    },
    /** Another `serve` on the same database, data directory and fakes (stop it yourself). */
    another: () =>
      startBot(config, logger, {
        spawner: spawnerOf(),
        host: fixedHostLoad(),
        ...clock,
      }),
    /** Sends `/codex <text>` as `user`; returns the HTTP answer and the response URL id. */
    async command(
      text: string,
      user = OWNER,
      channel = "C1",
      extra: { timestamp?: number; signature?: string; team?: string } = {},
    ) {
      const id = `r${++responses}`;
      const body = slashCommandBody({
        text,
        user_id: user,
        channel_id: channel,
        team_id: extra.team ?? TEAM,
        response_url: slack.responseUrl(id),
      });
      const res = await postSigned(base, "/slack/events", body, "form", SECRET, extra);
      return { ...res, responseId: id };
    },
    /** Clicks a button of the message `messageTs` in `channel`. */
    async click(actionId: string, value: string, messageTs: string, user = OWNER, channel = "C1") {
      const id = `r${++responses}`;
      const payload = blockActionPayload({
        user,
        channel,
        message_ts: messageTs,
        action_id: actionId,
        value,
        response_url: slack.responseUrl(id),
        team: TEAM,
      });
      const res = await postSigned(base, "/slack/events", interactionBody(payload), "form", SECRET);
      return { ...res, responseId: id };
    },
    /** Submits a modal as `user`: the values of its inputs, keyed by block then action id. */
    async submit(
      callbackId: string,
      values: Record<string, Record<string, string>>,
      privateMetadata = "",
      user = OWNER,
    ) {
      const state = Object.fromEntries(
        Object.entries(values).map(([b, actions]) => [
          b,
          Object.fromEntries(
            Object.entries(actions).map(([a, v]) => [a, { type: "plain_text_input", value: v }]),
          ),
        ]),
      );
      const payload = viewSubmissionPayload({
        user,
        team: TEAM,
        callback_id: callbackId,
        private_metadata: privateMetadata,
        values: state,
      });
      return postSigned(base, "/slack/events", interactionBody(payload), "form", SECRET);
    },
    async event(
      event: Record<string, unknown> & { type: string },
      eventId = `Ev${randomBytes(5).toString("hex")}`,
    ) {
      return postSigned(
        base,
        "/slack/events",
        eventBody({ event, event_id: eventId, team_id: TEAM, bot_user_id: slack.botUserId }),
        "json",
        SECRET,
      );
    },
    /** The ephemeral answer that reached a response URL. */
    async response(id: string, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = slack.responses.find((x) => x.id === id);
        if (r) return r.body as { text?: string; blocks?: unknown[] };
        if (Date.now() > deadline) throw new Error(`no response on ${id}`);
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    async close() {
      await killRecorded(bot.engine.db).catch(() => undefined);
      await bot.stop();
      await model.close();
      await slack.close();
      diagnostics.keep(slack.calls);
      await database.drop();
      await removeTree(dir);
      fs.rmSync(home.dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` yields a value. */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How much of each log a failed test's report shows (its end). */
const REPORT_LINES = 60;

/**
 * What a failed test's report adds, so that a failure seen once (in CI, under load) can be read
 * rather than guessed at: the bot's log, the workers' logs and the Slack calls, kept at close()
 * (vitest reports a failure after the afterEach that removed the files).
 */
function failureDiagnostics(dataDir: string) {
  const botLines: string[] = [];
  const logger = createLogger("info", {
    write(line: string) {
      botLines.push(line.trimEnd());
      if (botLines.length > 4 * REPORT_LINES) botLines.splice(0, REPORT_LINES);
    },
  });
  let kept = "";
  const keep = (calls: readonly { method: string; ok: boolean | undefined }[]) => {
    const parts = [`bot log:\n${botLines.slice(-REPORT_LINES).join("\n")}`];
    const logs = path.join(dataDir, "logs");
    for (const f of fs.existsSync(logs) ? fs.readdirSync(logs).sort() : []) {
      const lines = fs.readFileSync(path.join(logs, f), "utf8").trimEnd().split("\n");
      parts.push(`${f}:\n${lines.slice(-REPORT_LINES).join("\n")}`);
    }
    parts.push(
      `Slack calls (the last 200): ${calls
        .slice(-200)
        .map((c) => (c.ok === false ? `${c.method}!` : c.method))
        .join(" ")}`,
    );
    kept = parts.join("\n\n");
  };
  try {
    onTestFailed(() => {
      if (kept) process.stderr.write(`\n--- the failed test's bot (test/support/slackBot.ts) ---\n${kept}\n`);
    });
  } catch {
    // Started outside a test (a beforeAll): no report for it.
  }
  return { logger, keep };
}
