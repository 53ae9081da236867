import { createEngineApi } from "../../src/engine/api/index.js";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { webClientOptions } from "../../src/bot/app.js";
import { Notifier } from "../../src/bot/notifier/notifier.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { finishItem } from "../../src/engine/conversations/outcome.js";
import { writeTransaction } from "../../src/engine/database.js";
import { silentLogger } from "../../src/logger.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { testEngine } from "../support/engine.js";
import { askedInChannel } from "../support/slackAsked.js";
import { recordActivity } from "../support/activity.js";

describe("notifier (outbox → Slack)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let slack: FakeSlack;
  afterEach(async () => {
    await slack?.close();
    await env?.close();
  });

  async function setup() {
    env = await testEngine();
    slack = await startFakeSlack();
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
        backoffMaxMs: 8_000,
        // Every turn's done DM, as these tests' fake-clock turns last no time (default: a minute, S-QUIET-02).
        progress: { streaming: "off", interimMs: 60_000, doneDmAfterMs: 0 },
      });
    return { client, notifier };
  }

  /** A conversation started from `/codex ask` in `channel` whose agent answered `answer`. */
  async function answered(channel: string, prompt: string, answer: string) {
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, prompt, "UOWNER", {
      onCreated: askedInChannel(env, channel),
    });
    const [claim] = (await env.engine.dispatch()).started;
    await writeTransaction(env.db, (trx) =>
      finishItem(trx, env.clock, env.engine.hook, claim!, {
        status: "done",
        content: answer,
        error: null,
        errorCode: null,
      }),
    );
    return { conversation, item };
  }

  async function drainUntilIdle(notifier: Notifier, maxRounds = 60) {
    for (let i = 0; i < maxRounds; i++) {
      await notifier.drainOnce();
      const pending = await env.db
        .selectFrom("outbox")
        .select("id")
        .where("status", "=", "pending")
        .execute();
      if (pending.length === 0) return;
      env.clock.advance(2_000);
    }
    throw new Error("outbox did not drain");
  }

  const rootOf = async (conversationId: string) =>
    // The bot's own record of where the conversation lives in Slack (never the engine's tables).
    await env.db
      .selectFrom("slack_addresses")
      .select(["thread_ts as slack_thread_ts", "status_ts as slack_status_ts"])
      .where("subject_kind", "=", "conversation")
      .where("subject_id", "=", conversationId)
      .executeTakeFirstOrThrow();

  it("posts the state message as the thread root, the answer in its thread, and edits the state to done", async () => {
    const { notifier } = await setup();
    const { conversation } = await answered("C1", "hello", "Bonjour **toi**");
    await drainUntilIdle(notifier());
    const { slack_thread_ts, slack_status_ts } = await rootOf(conversation.id);
    expect(slack_thread_ts).toBe(slack_status_ts);
    const roots = slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(roots).toHaveLength(1);
    const thread = slack.thread("C1", slack_thread_ts!).filter((m) => m.ts !== slack_thread_ts);
    expect(thread.map((m) => m.text).join("\n")).toContain("Bonjour *toi*");
    expect(JSON.stringify(roots[0]!.blocks)).not.toContain("conversation.stop"); // done: no Stop button
    expect(roots[0]!.updates).toBeGreaterThanOrEqual(0);
  });

  it("a minute of Slack 500s loses no notification and duplicates none", async () => {
    const { notifier } = await setup();
    const n = notifier();
    const convs = [];
    for (let i = 0; i < 3; i++) convs.push(await answered("C1", `prompt ${i}`, `réponse numéro ${i}`));
    slack.outage(true, 500);
    for (let s = 0; s < 60; s += 2) {
      await n.drainOnce();
      env.clock.advance(2_000);
    }
    expect(slack.messages("C1")).toHaveLength(0);
    // it kept trying (a failed post is looked for before it is posted again: its outcome is unknown)
    expect(
      slack.calls.filter((c) => c.method === "chat.postMessage" || c.method === "conversations.history")
        .length,
    ).toBeGreaterThan(10);
    slack.outage(false);
    await drainUntilIdle(n);
    for (const [i, c] of convs.entries()) {
      const { slack_thread_ts } = await rootOf(c.conversation.id);
      const thread = slack.thread("C1", slack_thread_ts!).filter((m) => m.ts !== slack_thread_ts);
      expect(thread.filter((m) => m.text.includes(`réponse numéro ${i}`))).toHaveLength(1);
    }
    expect(slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts)).toHaveLength(3);
    const failed = await env.db.selectFrom("outbox").select("id").where("status", "=", "failed").execute();
    expect(failed).toHaveLength(0);
  });

  it("a crash between Slack's answer and recording the ts is reconciled through the message metadata, not posted twice", async () => {
    const { notifier } = await setup();
    const { conversation } = await answered("C1", "hello", "une seule fois");
    slack.failNext("chat.postMessage", { status: 200, dropResponse: true });
    await notifier().drainOnce(); // Slack stored the root, we never learnt its ts
    expect(slack.messages("C1")).toHaveLength(1);
    const intent = await env.db.selectFrom("slack_posts").selectAll().executeTakeFirstOrThrow();
    expect(intent.status).toBe("sending");
    env.clock.advance(10_000);
    await drainUntilIdle(notifier()); // a new process: nothing in memory
    const roots = slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(roots).toHaveLength(1);
    expect((await rootOf(conversation.id)).slack_status_ts).toBe(roots[0]!.ts);
    expect(slack.thread("C1", roots[0]!.ts).filter((m) => m.text.includes("une seule fois"))).toHaveLength(1);
  });

  it("honours 429 Retry-After before calling Slack again", async () => {
    const { notifier } = await setup();
    const n = notifier();
    await answered("C1", "hello", "après la pause");
    slack.failNext("chat.postMessage", { status: 429, retryAfter: 5 });
    await n.drainOnce();
    const calls = () => slack.callsTo("chat.postMessage").length;
    expect(calls()).toBe(1);
    env.clock.advance(3_000);
    await n.drainOnce();
    expect(calls()).toBe(1); // still waiting
    env.clock.advance(2_500);
    await drainUntilIdle(n);
    expect(calls()).toBeGreaterThan(1);
    expect(slack.messages("C1").some((m) => m.text.includes("après la pause"))).toBe(true);
  });

  it("not_in_channel fails visibly and tells the user by DM, once", async () => {
    const { notifier } = await setup();
    slack.setChannelError("C9", "not_in_channel");
    await answered("C9", "hello", "perdu");
    await drainUntilIdle(notifier());
    const failed = await env.db
      .selectFrom("outbox")
      .select(["last_error"])
      .where("status", "=", "failed")
      .execute();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.last_error).toBe("not_in_channel");
    const dm = slack.messages(slack.dmChannel("UOWNER"));
    expect(dm).toHaveLength(1);
    expect(dm[0]!.text).toContain("not_in_channel");
  });

  it("state edits are coalesced to at most one a second", async () => {
    const { notifier } = await setup();
    const n = notifier();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "long", "UOWNER", {
      onCreated: askedInChannel(env, "C1"),
    });
    await env.engine.dispatch();
    await n.drainOnce(); // posts the root (queued, then started collapse)
    const turn = { conversationId: conversation.id, queueId: item.id };
    for (let i = 0; i < 5; i++) await recordActivity(env.db, env.clock.now(), turn, `step ${i}`);
    await n.drainOnce();
    await n.drainOnce();
    expect(slack.callsTo("chat.update")).toHaveLength(0); // the root was posted less than a second ago
    env.clock.advance(1_100);
    await n.drainOnce();
    const updates = slack.callsTo("chat.update");
    expect(updates).toHaveLength(1); // five progress events, one edit, with the latest activity
    expect(JSON.stringify(updates[0]!.args.blocks)).toContain("step 4");
    const pending = await env.db.selectFrom("outbox").select("id").where("status", "=", "pending").execute();
    expect(pending).toHaveLength(0);
  });

  it("a progress committed while the state message is being edited is shown next, not collapsed into that edit", async () => {
    const { notifier } = await setup();
    const n = notifier();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "long", "UOWNER", {
      onCreated: askedInChannel(env, "C1"),
    });
    await env.engine.dispatch();
    await n.drainOnce(); // posts the root
    const turn = { conversationId: conversation.id, queueId: item.id };
    const progress = (activity: string) => recordActivity(env.db, env.clock.now(), turn, activity);
    await progress("step A");
    env.clock.advance(1_100);
    // The edit showing step A is slow to answer; step B is committed while it is in flight, after
    // the notifier read the state it renders.
    slack.failNext("chat.update", { delayMs: 400 });
    const drained = n.drainOnce();
    const inFlight = async () => {
      for (let i = 0; i < 400 && !slack.arrivals.includes("chat.update"); i++)
        await new Promise((r) => setTimeout(r, 10));
    };
    await inFlight();
    expect(slack.arrivals).toContain("chat.update");
    await progress("step B");
    await drained;
    const edits = () => slack.callsTo("chat.update").map((c) => JSON.stringify(c.args.blocks));
    expect(edits()).toHaveLength(1);
    expect(edits()[0]).toContain("step A");
    // Step B is still to show: the next edit shows it.
    env.clock.advance(1_100);
    await drainUntilIdle(n);
    expect(edits().some((e) => e.includes("step B"))).toBe(true);
  });

  it("a very long answer is uploaded as a file, never cut", async () => {
    const { notifier } = await setup();
    const long = Array.from({ length: 800 }, (_, i) => `ligne ${i} ${"x".repeat(40)}`).join("\n");
    await answered("C1", "long", long);
    await drainUntilIdle(notifier());
    expect(slack.files).toHaveLength(1);
    expect(slack.files[0]!.content.toString("utf8")).toBe(long);
  });

  it("the author gets a DM when their task ends, unless they turned task_completion off", async () => {
    const { notifier } = await setup();
    const { setPreferences } = await import("../../src/engine/coordination/preferences.js");
    await answered("C1", "hello", "fini");
    await drainUntilIdle(notifier());
    const dm = slack.messages(slack.dmChannel("UOWNER"));
    expect(dm).toHaveLength(1);
    expect(dm[0]!.text).toContain("terminée");
    await setPreferences(env.db, env.clock, "UOWNER", {
      task_completion: false,
      decisions: true,
      incidents: true,
    });
    await answered("C1", "encore", "fini aussi");
    await drainUntilIdle(notifier());
    expect(slack.messages(slack.dmChannel("UOWNER"))).toHaveLength(1);
  });

  it("a malformed outbox row is logged and marked failed, and the notifier goes on delivering its thread", async () => {
    await setup();
    const now = env.clock.now();
    const { conversation } = await answered("C1", "hello", "toujours livré");
    // A damaged row at the head of the conversation's thread: it must not hold the thread back.
    await env.db
      .insertInto("outbox")
      .values({
        id: 0,
        kind: "conversation.finished",
        payload: '{"kind":"conversation.finished"',
        ordering_key: `conversation:${conversation.id}`,
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
    const logged: unknown[] = [];
    const logger = Object.assign(Object.create(silentLogger) as typeof silentLogger, {
      error: (obj: unknown) => void logged.push(obj),
    });
    const n = new Notifier({
      api: createEngineApi(env.engine),
      db: env.db,
      client: new WebClient("xoxb-test", webClientOptions({ slack: { apiUrl: slack.apiUrl } } as never)),
      clock: env.clock,
      logger,
      locale: "fr",
    });
    await drainUntilIdle(n);
    const bad = await env.db
      .selectFrom("outbox")
      .select(["status", "last_error"])
      .where("id", "=", 0)
      .executeTakeFirstOrThrow();
    expect(bad.status).toBe("failed");
    expect(bad.last_error).toMatch(/^malformed/);
    expect(logged).toEqual([expect.objectContaining({ outboxId: 0, kind: "conversation.finished" })]);
    expect(n.failures.get("malformed_event")).toBe(1);
    expect(
      slack
        .messages("C1")
        .flatMap((m) => slack.thread("C1", m.ts))
        .some((m) => m.text.includes("toujours livré")),
    ).toBe(true);
  });

  it("records where a conversation lives in Slack in the bot's own table, never in the engine's", async () => {
    const { notifier } = await setup();
    const { conversation } = await answered("C1", "hello", "réponse");
    await drainUntilIdle(notifier());
    const root = slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts)!;
    expect(await rootOf(conversation.id)).toEqual({ slack_thread_ts: root.ts, slack_status_ts: root.ts });
    // The engine's row holds no Slack address at all (its columns are listed: a positive control).
    const columns = (await env.db.introspection.getTables())
      .find((t) => t.name === "conversations")!
      .columns.map((c) => c.name);
    expect(columns).toContain("codex_thread_id");
    expect(columns.filter((c) => /slack|thread_ts|status_ts/.test(c))).toEqual([]);
  });
});
