import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { openMigrated, type Database } from "../../src/engine/database.js";
import { addProject } from "../../src/engine/projects/index.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { systemClock } from "../../src/engine/clock.js";
import { leaseHolder, COORDINATOR_LEASE } from "../../src/engine/leases.js";
import { FAKE_KEY_ENV, makeCodexHome } from "../support/codexHome.js";
import { killRecorded, until } from "../support/codexEngine.js";
import { tempDir } from "../support/engine.js";
import { startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { postSigned, slashCommandBody } from "../support/slackRequests.js";
import { removeTree } from "../support/removeTree.js";

const CLI = path.resolve("dist/bin/main.js");
const SECRET = "takeover-secret";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

describe("coordinator takeover after a crash (real CLI, fake Slack)", () => {
  let slack: FakeSlack;
  let model: FakeModel;
  let dir: string;
  let db: Database | undefined;
  const servers: ResultPromise[] = [];

  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.kill("SIGKILL");
      await s.catch(() => undefined); // gone before its data directory is removed
    }
    if (db) {
      await killRecorded(db);
      await db.destroy();
      db = undefined;
    }
    await slack?.close();
    await model?.close();
    await removeTree(dir);
  });

  it("serve restarted on the same host after a SIGKILL posts to Slack within 5 s (the dead holder's lease is taken at once)", async () => {
    slack = await startFakeSlack({ teamId: "T0001" });
    model = await startFakeModel();
    const home = await makeCodexHome(model.url);
    dir = tempDir();
    const port = await freePort();
    const env = {
      ...process.env,
      ...home.env,
      CODEXPI_DATA_DIR: path.join(dir, "data"),
      CODEXPI_AGENT_ENV: FAKE_KEY_ENV,
      SLACK_BOT_TOKEN: "xoxb-takeover",
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      SLACK_TEAM_ID: "T0001",
      HOST: "127.0.0.1",
      PORT: String(port),
      HEALTH_PORT: "0",
      CODEXPI_METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      NO_PROXY: "127.0.0.1,localhost",
    };
    db = await openMigrated(path.join(dir, "data", "codexpi.db"));
    fs.mkdirSync(path.join(dir, "demo"));
    await addProject(db, systemClock, { name: "demo", path: path.join(dir, "demo") });
    await updateGlobalPolicy(
      db,
      systemClock,
      {
        max_concurrent: 4,
        load_pause_percent: 1000,
        memory_pause_percent: 100,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "test",
    );
    const serve = () => {
      const child = execa(process.execPath, [CLI, "serve"], { env, reject: false });
      servers.push(child);
      return child;
    };

    const first = serve();
    const held = await until(() => leaseHolder(db!, systemClock, COORDINATOR_LEASE), 20_000, "a coordinator");
    expect(held.owner.split(":")[1]).toBe(String(first.pid));
    first.kill("SIGKILL");
    await first;
    // The dead process's lease has most of its 30 s left: without a takeover nothing posts before it ends.
    expect((await leaseHolder(db, systemClock, COORDINATOR_LEASE))?.owner).toBe(held.owner);

    const restartedAt = Date.now();
    const second = serve();
    await until(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          () => true,
          () => false,
        ),
      20_000,
      "the restarted bot's HTTP listener",
    );
    const ack = await postSigned(
      `http://127.0.0.1:${port}`,
      "/slack/events",
      slashCommandBody({
        text: "ask demo hello after the crash",
        user_id: "U1",
        channel_id: "C1",
        team_id: "T0001",
        response_url: slack.responseUrl("r1"),
      }),
      "form",
      SECRET,
    );
    expect(ack.status).toBe(200);
    await slack.waitForCall("chat.postMessage", undefined, 5_000 - (Date.now() - restartedAt));
    expect(Date.now() - restartedAt).toBeLessThan(5_000);
    expect((await leaseHolder(db, systemClock, COORDINATOR_LEASE))?.owner.split(":")[1]).toBe(
      String(second.pid),
    );
  });
});
