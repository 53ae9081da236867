import { Engine } from "../../src/engine/engine.js";
import { createEngineApi } from "../../src/engine/api/index.js";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { webClientOptions } from "../../src/bot/app.js";
import { Notifier } from "../../src/bot/notifier/notifier.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { openDatabase, type Database } from "../../src/engine/database.js";
import { closeWakeups, wakeupsOf } from "../../src/engine/wakeups.js";
import { silentLogger } from "../../src/logger.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { testEngine } from "../support/engine.js";
import { eventually } from "../support/slackBot.js";
import { askedInChannel } from "../support/slackAsked.js";

// Run by the postgres project only (vitest.config.ts): the notifier of one process is woken by
// an outbox event committed in another (NOTIFY), long before its poll.

const POLL_MS = 5_000;

describe("notifier woken by the outbox on PostgreSQL", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  let slack: FakeSlack | undefined;
  let notifierDb: Database | undefined;
  let notifier: Notifier | undefined;
  afterEach(async () => {
    await notifier?.stop();
    if (notifierDb) {
      await closeWakeups(notifierDb);
      await notifierDb.destroy();
    }
    await slack?.close();
    await env?.close();
    notifier = notifierDb = slack = env = undefined;
  });

  /** A notifier in "another process" (its own pool), woken or not, drained once at start. */
  async function start(woken: boolean) {
    env = await testEngine();
    slack = await startFakeSlack();
    if (env.config.database.dialect !== "postgres") throw new Error("postgres only");
    notifierDb = openDatabase(env.config.database);
    const wakeups = wakeupsOf(notifierDb);
    await wakeups.ready();
    const client = new WebClient("xoxb-test", webClientOptions({ slack: { apiUrl: slack.apiUrl } } as never));
    notifier = new Notifier({
      // The notifier's own connection, as another process would have.
      api: createEngineApi(new Engine({ config: env.config, db: notifierDb, clock: env.clock })),
      db: notifierDb,
      client,
      clock: env.clock,
      logger: silentLogger,
      locale: "fr",
      pollMs: POLL_MS,
      wakeups: woken ? wakeups : undefined,
    });
    notifier.start();
    await new Promise((r) => setTimeout(r, 300)); // its first drain found nothing; it sleeps
  }

  /** Starts a Slack conversation in this process; how long until its state message is posted. */
  async function postedAfter(): Promise<number> {
    const t0 = Date.now();
    await startConversation(env!.db, env!.clock, env!.project, "hello", "UOWNER", {
      onCreated: askedInChannel(env!, "C1"),
    });
    await eventually(() => slack!.messages("C1")[0], POLL_MS * 2, "the state message");
    return Date.now() - t0;
  }

  it("posts an event committed elsewhere at once; without wake-ups only at its next poll", async () => {
    await start(true);
    const woken = await postedAfter();
    expect(woken).toBeLessThan(POLL_MS / 5);
    await notifier!.stop();
    notifier = undefined;
    await closeWakeups(notifierDb!);
    await notifierDb!.destroy();
    notifierDb = undefined;
    await slack!.close();
    await env!.close();
    slack = env = undefined;

    await start(false); // positive control
    const polled = await postedAfter();
    expect(polled).toBeGreaterThan(POLL_MS / 2);
    console.log(
      `outbox event → Slack post by another process's notifier: ${woken} ms woken, ${polled} ms polling`,
    );
  });
});
