import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { randomBytes } from "node:crypto";
import SQLite from "better-sqlite3";
import { execa, type ResultPromise } from "execa";
import { addProject } from "../../src/engine/projects/index.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { openDatabase, openMigrated, type Database } from "../../src/engine/database.js";
import { makeCodexHome } from "./codexHome.js";
import { killRecorded } from "./codexEngine.js";
import { tempDir } from "./engine.js";
import type { TestDatabase } from "./testDatabase.js";
import { type FakeModelOptions, startFakeModel } from "./fakeModel.js";
import { startFakeSlack } from "./fakeSlack.js";
import {
  eventBody,
  interactionBody,
  postSigned,
  slashCommandBody,
  viewSubmissionPayload,
} from "./slackRequests.js";
import { ADMIN, OWNER, SECRET, TEAM } from "./slackBot.js";
import { removeTree } from "./removeTree.js";

const CLI = path.resolve("dist/bin/main.js");

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

/**
 * `codexpi serve` as a real child process (the real CLI, HTTP mode, real workers and Codex
 * binary), with Slack and the model faked on 127.0.0.1: what a kill right after an ack needs.
 * The data directory survives `kill()`, so `start()` again is the restarted bot.
 */
export async function serveProcess(opts: { database?: TestDatabase; model?: FakeModelOptions } = {}) {
  const slack = await startFakeSlack({ teamId: TEAM });
  const model = await startFakeModel(opts.model);
  const home = await makeCodexHome(model.url);
  const dir = tempDir();
  const dataDir = path.join(dir, "data");
  const dbFile = path.join(dataDir, "codexpi.db");
  const baseEnv: Record<string, string> = {
    ...home.env,
    NO_PROXY: "127.0.0.1,localhost",
    // The language the tests built on this helper assert (written when French was the default):
    // set explicitly since the default became English (S-LANG-01); a test may override it.
    CODEXPI_LOCALE: "fr",
    CODEXPI_DATA_DIR: dataDir,
    SLACK_BOT_TOKEN: "xoxb-test",
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_TEAM_ID: TEAM,
    CODEXPI_ADMINS: ADMIN,
    HOST: "127.0.0.1",
    HEALTH_PORT: "0",
    CODEXPI_METRICS_PORT: "0",
    CODEXPI_TICK: "*/1 * * * * *",
    CODEXPI_IDLE_TIMEOUT: "60",
    LOG_LEVEL: "warn",
  };
  Object.assign(baseEnv, opts.database?.env);
  // On PostgreSQL the test's database is a copy of the migrated template.
  const target = opts.database?.target ?? { dialect: "sqlite" as const, file: dbFile };
  const seed = target.dialect === "postgres" ? openDatabase(target) : await openMigrated(dbFile);
  const projectDir = path.join(dir, "demo");
  fs.mkdirSync(projectDir);
  await addProject(
    seed,
    { now: () => Date.now() },
    {
      name: "demo",
      path: projectDir,
      ownerId: OWNER,
      workspaceMode: "direct",
    },
  );
  await updateGlobalPolicy(
    seed,
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
  await seed.destroy();
  /** The test's own reader of the main database (WAL: it never waits on the bot's writes). */
  const db: Database = openDatabase(target);

  let child: ResultPromise | null = null;
  let base = "";
  let responses = 0;
  const stderr: string[] = [];
  const launch = async (env: Record<string, string>, errors: string[]) => {
    const port = await freePort();
    const proc = execa(process.execPath, [CLI, "serve"], {
      env: { ...baseEnv, ...env, PORT: String(port) },
      reject: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    proc.stderr?.on("data", (d: Buffer) => errors.push(d.toString()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).status > 0) return { proc, url };
      } catch {
        if (Date.now() > deadline) throw new Error(`serve did not start: ${errors.join("")}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const others: ResultPromise[] = [];

  async function commandTo(url: string, text: string, user: string, channel: string) {
    const id = `r${++responses}-${randomBytes(3).toString("hex")}`;
    const body = slashCommandBody({
      text,
      user_id: user,
      channel_id: channel,
      team_id: TEAM,
      response_url: slack.responseUrl(id),
    });
    const res = await postSigned(url, "/slack/events", body, "form", SECRET);
    return { ...res, responseId: id };
  }
  async function eventTo(
    url: string,
    event: Record<string, unknown> & { type: string },
    eventId = `Ev${randomBytes(5).toString("hex")}`,
  ) {
    const body = eventBody({ event, event_id: eventId, team_id: TEAM, bot_user_id: slack.botUserId });
    return { ...(await postSigned(url, "/slack/events", body, "json", SECRET)), eventId };
  }

  return {
    slack,
    model,
    db,
    dbFile,
    dataDir,
    stderr,
    get base() {
      return base;
    },
    /** Starts `serve` and resolves once its health endpoint answers. */
    async start(env: Record<string, string> = {}) {
      const started = await launch(env, stderr);
      child = started.proc;
      base = started.url;
    },
    /**
     * Another `serve` on the same database, data directory (Codex homes), Slack and model, with an
     * intake file of its own: a second instance on this machine. Its `kill()` is a SIGKILL;
     * close() ends it too.
     */
    async another(env: Record<string, string> = {}) {
      const errors: string[] = [];
      const intake = path.join(dataDir, `intake-${others.length + 2}.db`);
      const { proc, url } = await launch({ ...env, CODEXPI_INTAKE_FILE: intake }, errors);
      others.push(proc);
      return {
        base: url,
        pid: proc.pid as number,
        stderr: errors,
        async kill() {
          proc.kill("SIGKILL");
          await proc;
        },
        command: (text: string, user = OWNER, channel = "C1") => commandTo(url, text, user, channel),
        event: (event: Record<string, unknown> & { type: string }, eventId?: string) =>
          eventTo(url, event, eventId),
      };
    },
    /** The pid of the `serve` started by start(). */
    get pid() {
      return child?.pid ?? null;
    },
    /** SIGKILLs `serve` (no shutdown of any kind) and waits for it to be gone. */
    async kill() {
      if (!child) return;
      child.kill("SIGKILL");
      await child;
      child = null;
    },
    /**
     * Forgets the killed process's coordinator lease, as a fast takeover would (that is another
     * item of the issue): without it, the restarted bot would wait for the lease to expire.
     */
    async forgetLease() {
      await db.deleteFrom("leases").execute();
    },
    /**
     * A foreign process's write lock on the main database (`BEGIN IMMEDIATE` on its own
     * connection); `release()` rolls it back.
     */
    holdWriteLock() {
      const foreign = new SQLite(dbFile);
      foreign.pragma("busy_timeout = 5000");
      foreign.exec("BEGIN IMMEDIATE");
      return {
        release() {
          foreign.exec("ROLLBACK");
          foreign.close();
        },
      };
    },
    /** Whether another connection could take the write lock now (the lock is really held when false). */
    writable() {
      const probe = new SQLite(dbFile);
      probe.pragma("busy_timeout = 0");
      try {
        probe.exec("BEGIN IMMEDIATE; ROLLBACK");
        return true;
      } catch {
        return false;
      } finally {
        probe.close();
      }
    },
    /** Sends `/codex <text>` as `user`; the HTTP answer (with its latency) and the response URL id. */
    command(text: string, user = OWNER, channel = "C1") {
      return commandTo(base, text, user, channel);
    },
    /** Sends an Events API event (the same `eventId` again is Slack retrying it). */
    event(event: Record<string, unknown> & { type: string }, eventId?: string) {
      return eventTo(base, event, eventId);
    },
    /** Submits a modal as `user`: the values of its text inputs, keyed by block then action id. */
    async submit(callbackId: string, values: Record<string, Record<string, string>>, user = ADMIN) {
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
        private_metadata: "{}",
        values: state,
      });
      return postSigned(base, "/slack/events", interactionBody(payload), "form", SECRET);
    },
    async close() {
      await this.kill();
      for (const p of others.splice(0)) {
        p.kill("SIGKILL");
        await p;
      }
      await killRecorded(db).catch(() => undefined);
      await db.destroy();
      await opts.database?.drop();
      await model.close();
      await slack.close();
      await removeTree(dir);
      fs.rmSync(home.dir, { recursive: true, force: true });
    },
  };
}
