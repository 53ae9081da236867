import { createEngineApi } from "../../../src/engine/api/index.js";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { webClientOptions } from "../../../src/bot/app.js";
import { Notifier } from "../../../src/bot/notifier/notifier.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { finishItem } from "../../../src/engine/conversations/outcome.js";
import { serializeProgress, type Progress } from "../../../src/engine/conversations/progress.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { silentLogger } from "../../../src/logger.js";
import { testEngine } from "../../support/engine.js";
import { startFakeSlack, type FakeSlack } from "../../support/fakeSlack.js";
import { askedInChannel } from "../../support/slackAsked.js";
import { recordActivity } from "../../support/activity.js";

// The notifier alone (real outbox, real SQLite, the fake Slack, a fake clock), restarted mid-turn.
describe("a running turn's progress across notifier restarts", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let slack: FakeSlack;
  afterEach(async () => {
    await slack?.close();
    await env?.close();
  });

  async function setup(streaming: boolean) {
    env = await testEngine();
    slack = await startFakeSlack({ teamId: "T0001", streaming });
    const client = new WebClient("xoxb-test", webClientOptions({ slack: { apiUrl: slack.apiUrl } } as never));
    const notifier = () =>
      new Notifier({
        api: createEngineApi(env.engine),
        db: env.db,
        client,
        clock: env.clock,
        logger: silentLogger,
        locale: "fr",
        backoffBaseMs: 1_000,
        backoffMaxMs: 2_000,
        progress: { streaming: "auto", interimMs: 60_000, teamId: "T0001" },
      });
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "long", "UOWNER", {
      onCreated: askedInChannel(env, "C1"),
    });
    const [claim] = (await env.engine.dispatch()).started;
    const progress = (p: Progress) =>
      recordActivity(
        env.db,
        env.clock.now(),
        { conversationId: conversation.id, queueId: item.id },
        serializeProgress(p),
      );
    const finish = () =>
      writeTransaction(env.db, (trx) =>
        finishItem(trx, env.clock, env.engine.hook, claim!, {
          status: "done",
          content: "fini",
          error: null,
          errorCode: null,
        }),
      );
    return { notifier, progress, finish };
  }

  async function drain(n: Notifier, rounds = 20) {
    for (let i = 0; i < rounds; i++) {
      await n.drainOnce();
      const pending = await env.db
        .selectFrom("outbox")
        .select("id")
        .where("status", "=", "pending")
        .execute();
      if (!pending.length) return;
      env.clock.advance(2_000);
    }
    throw new Error("outbox did not drain");
  }

  const interimPosts = () =>
    slack.messages("C1").filter((m) => JSON.stringify(m.blocks ?? "").includes("Message intermédiaire"));

  it("posts an interim message exactly once when the notifier dies between Slack's answer and its record", async () => {
    const { notifier, progress, finish } = await setup(false);
    await drain(notifier());
    env.clock.advance(61_000); // the turn has lasted longer than the interval
    await progress({ kind: "command", detail: "npm test", plan: null, text: "Premier point." });
    // Slack posts the interim message, and the answer never reaches us.
    slack.failNext("chat.postMessage", { status: 200, dropResponse: true });
    await notifier().drainOnce();
    expect(interimPosts()).toHaveLength(1);
    // A new notifier (a restart) finds it by its key and does not post it again.
    const second = notifier();
    await drain(second);
    await progress({ kind: "command", detail: "npm run lint", plan: null, text: "Premier point." });
    await finish();
    await drain(second);
    expect(interimPosts().map((m) => m.text)).toEqual(["Premier point."]);
    // Its record was settled from Slack (the key in the message's metadata), not left unknown.
    const rows = await env.db
      .selectFrom("slack_posts")
      .select(["status", "ts"])
      .where("purpose", "=", "interim")
      .execute();
    expect(rows).toEqual([{ status: "posted", ts: interimPosts()[0]?.ts }]);
    expect(slack.messages("C1").filter((m) => m.text === "fini")).toHaveLength(1);
  });

  it("closes a stream opened before a restart and shows the rest of the turn on the status message", async () => {
    const { notifier, progress, finish } = await setup(true);
    const first = notifier();
    await drain(first);
    await progress({ kind: "command", detail: "echo step-1", plan: null, text: null });
    await drain(first);
    expect(slack.streams).toHaveLength(1);
    const status = slack.messages("C1")[0];
    const editsBefore = status?.updates ?? 0;
    // What the stream showed was in the dead notifier's memory: the new one stops it rather than
    // repeat or skip text, and the status message takes over (positive control: it is edited).
    const second = notifier();
    env.clock.advance(2_000);
    await progress({ kind: "command", detail: "echo step-2", plan: null, text: null });
    await drain(second);
    expect(slack.streams).toHaveLength(1);
    expect(slack.streams[0]?.state).toBe("stopped");
    const edited = slack.messages("C1")[0];
    expect(edited?.updates ?? 0).toBeGreaterThan(editsBefore);
    expect(JSON.stringify(edited?.blocks)).toContain("step-2");
    await finish();
    await drain(second);
    expect(slack.streams).toHaveLength(1);
    expect(slack.messages("C1").filter((m) => m.text === "fini")).toHaveLength(1);
  });

  it("remembers a workspace's refusal of streams across a restart, for an hour", async () => {
    const { notifier, progress, finish } = await setup(false);
    // A stream is asked for at a turn's first activity (S-QUIET-03), not at its start.
    const working = (conversationId: string, queueId: string) =>
      recordActivity(
        env.db,
        env.clock.now(),
        { conversationId, queueId },
        serializeProgress({ kind: "command", detail: "npm test", plan: null }),
      );
    await progress({ kind: "command", detail: "npm test", plan: null });
    await drain(notifier());
    expect(slack.callsTo("chat.startStream").map((c) => c.error)).toEqual(["feature_not_enabled"]);
    await finish();
    const another = async () => {
      await startConversation(env.db, env.clock, env.project, "encore", "UOWNER", {
        onCreated: askedInChannel(env, "C2"),
      });
      const [claim] = (await env.engine.dispatch()).started;
      expect(claim).toBeDefined();
      await working(claim!.conversation_id, claim!.id);
      return async () => {
        await writeTransaction(env.db, (trx) =>
          finishItem(trx, env.clock, env.engine.hook, claim!, {
            status: "done",
            content: "ok",
            error: null,
            errorCode: null,
          }),
        );
      };
    };
    // A restarted notifier does not ask again for the next turn…
    const done = await another();
    await drain(notifier());
    expect(slack.callsTo("chat.startStream")).toHaveLength(1);
    await done();
    // …but does once the hour is over (positive control: it would ask).
    env.clock.advance(3_600_000);
    await another();
    await drain(notifier());
    expect(slack.callsTo("chat.startStream")).toHaveLength(2);
  });
});
