import { afterEach, describe, expect, it } from "vitest";
import { startSlackApp } from "../../src/bot/app.js";
import { SeenRequests, SIGNATURE_WINDOW_MS } from "../../src/bot/receiver/signatureCheck.js";
import { IntakeStore } from "../../src/bot/intake/store.js";
import { silentLogger } from "../../src/logger.js";
import path from "node:path";
import { tempDir, testEngine } from "../support/engine.js";
import {
  appMentionEvent,
  eventBody,
  interactionBody,
  postSigned,
  signSlackRequest,
  slashCommandBody,
  viewSubmissionPayload,
} from "../support/slackRequests.js";
import { OWNER, SECRET, TEAM, eventually, slackBot } from "../support/slackBot.js";
import { settled } from "../support/settled.js";

const FOREIGN = "T9999";
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The specialist form as Slack submits it, with the request's and the user's team set apart. */
function specialistSubmission(name: string, teams: { team: string; userTeam: string }) {
  const payload = viewSubmissionPayload({
    user: OWNER,
    team: TEAM,
    callback_id: "specialist.add",
    private_metadata: JSON.stringify({ channelId: "C1" }),
    values: {
      "specialist.add.name": { "specialist.add.name.value": { type: "plain_text_input", value: name } },
      "specialist.add.description": {
        "specialist.add.description.value": {
          type: "plain_text_input",
          value: "Audite le code des projets qui lui délèguent une tâche.",
        },
      },
      "specialist.add.capabilities": {
        "specialist.add.capabilities.value": { type: "plain_text_input", value: "code.audit" },
      },
    },
  }) as { team: { id: string }; user: { team_id: string } };
  payload.team.id = teams.team;
  payload.user.team_id = teams.userTeam;
  return payload;
}

// Finding 10 against the real bot: Bolt's HTTP receiver with real signature checks, then our
// checks in front of it (replays, future timestamps) and the workspace guard behind it.
describe("requests: workspace, replays and timestamps", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const specialists = async () =>
    (await bot.db.selectFrom("specialist_agents").select("name").execute()).map((s) => s.name);
  const conversations = async () => (await bot.db.selectFrom("conversations").select("id").execute()).length;

  it("finding 10a: a request is refused when its team or its user's team is foreign, even with the other one ours; both ours is accepted", async () => {
    bot = await slackBot();
    const send = (payload: unknown) =>
      postSigned(bot.base, "/slack/events", interactionBody(payload), "form", SECRET);
    const foreignTeam = await send(specialistSubmission("Studio Un", { team: FOREIGN, userTeam: TEAM }));
    const foreignUser = await send(specialistSubmission("Studio Deux", { team: TEAM, userTeam: FOREIGN }));
    expect([foreignTeam.status, foreignUser.status]).toEqual([200, 200]); // acked so that Slack does not retry, and ignored

    // An event from our workspace whose author belongs to another one (a shared channel).
    const mention = appMentionEvent({
      user: OWNER,
      channel: "C2",
      text: `<@${bot.slack.botUserId}> demo lis les secrets`,
      ts: "1800000020.000100",
      team: FOREIGN,
    });
    await postSigned(
      bot.base,
      "/slack/events",
      eventBody({ event: mention, team_id: TEAM, bot_user_id: bot.slack.botUserId }),
      "json",
      SECRET,
    );
    await settled(bot);
    expect(await specialists()).toEqual([]);
    expect(await conversations()).toBe(0);

    // Positive controls: the same requests with every team ours are accepted.
    const ours = await send(specialistSubmission("Studio Trois", { team: TEAM, userTeam: TEAM }));
    expect(ours.status).toBe(200);
    await eventually(async () => (await specialists()).length > 0, 10_000, "specialist created");
    expect(await specialists()).toEqual(["Studio Trois"]);
    await postSigned(
      bot.base,
      "/slack/events",
      eventBody({
        event: { ...mention, team: TEAM, ts: "1800000021.000100" },
        team_id: TEAM,
        bot_user_id: bot.slack.botUserId,
      }),
      "json",
      SECRET,
    );
    // Also the positive control of settled(): Bolt acks an event before its listener runs, and
    // settled() still waits for the conversation the mention starts.
    // (The specialist's preparation is a conversation too: count the mention's alone.)
    await settled(bot);
    const fromMentions = await bot.db
      .selectFrom("slack_addresses")
      .select("thread_ts")
      .where("subject_kind", "=", "conversation")
      .where("origin", "=", "mention")
      .execute();
    expect(fromMentions).toEqual([{ thread_ts: "1800000021.000100" }]);
  });

  it("finding 10a in Socket Mode: mixed teams are refused there too, and a correctly teamed payload is accepted", async () => {
    bot = await slackBot({ socket: true });
    await bot.slack.socket.waitForConnection(10_000);
    await bot.slack.socket.send(
      "interactive",
      specialistSubmission("Studio Un", { team: FOREIGN, userTeam: TEAM }),
    );
    await bot.slack.socket.send(
      "interactive",
      specialistSubmission("Studio Deux", { team: TEAM, userTeam: FOREIGN }),
    );
    await settled(bot);
    expect(await specialists()).toEqual([]);
    await bot.slack.socket.send(
      "interactive",
      specialistSubmission("Studio Trois", { team: TEAM, userTeam: TEAM }),
    );
    await eventually(async () => (await specialists()).length === 1, 10_000, "accepted");
    expect(await specialists()).toEqual(["Studio Trois"]);
  });

  it("finding 10b: a replayed slash command is refused with 401 and starts no second conversation; its first delivery did start one", async () => {
    bot = await slackBot();
    const body = slashCommandBody({
      text: "ask demo hello",
      user_id: OWNER,
      channel_id: "C1",
      team_id: TEAM,
      response_url: bot.slack.responseUrl("first"),
    });
    const timestamp = nowSeconds();
    const first = await postSigned(bot.base, "/slack/events", body, "form", SECRET, { timestamp });
    expect(first.status).toBe(200);
    await eventually(async () => (await conversations()) === 1, 10_000, "first conversation");

    const replay = await postSigned(bot.base, "/slack/events", body, "form", SECRET, { timestamp });
    expect(replay.status).toBe(401);
    await settled(bot);
    expect(await conversations()).toBe(1);
    expect(await bot.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(1);

    // A forged signature is Bolt's 401 and is not remembered (it could not block anything).
    const forged = await postSigned(bot.base, "/slack/events", body, "form", SECRET, {
      timestamp: timestamp + 1,
      signature: "v0=deadbeef",
    });
    expect(forged.status).toBe(401);
    const seen = await bot.db
      .selectFrom("slack_events")
      .select("event_id")
      .where("event_id", "like", "sig:%")
      .execute();
    expect(seen.map((r) => r.event_id)).toEqual([
      `sig:${timestamp}:${signSlackRequest(SECRET, body, timestamp)["x-slack-signature"]}`,
    ]);
  });

  it("finding 10b: a replay is still refused after the bot restarts within the window; a new request is accepted", async () => {
    bot = await slackBot();
    const body = slashCommandBody({
      text: "ask demo hello",
      user_id: OWNER,
      channel_id: "C1",
      team_id: TEAM,
    });
    const timestamp = nowSeconds();
    expect((await postSigned(bot.base, "/slack/events", body, "form", SECRET, { timestamp })).status).toBe(
      200,
    );
    await eventually(async () => (await conversations()) === 1, 10_000, "first conversation");

    await bot.bot.slack!.stop();
    const restarted = await startSlackApp({
      config: bot.config,
      engine: bot.bot.engine,
      logger: silentLogger,
      locale: "fr",
      health: bot.bot.health,
    });
    try {
      const base = `http://127.0.0.1:${restarted.port}`;
      expect((await postSigned(base, "/slack/events", body, "form", SECRET, { timestamp })).status).toBe(401);
      await restarted.settled();
      await settled(bot);
      expect(await conversations()).toBe(1);
      const fresh = slashCommandBody({
        text: "ask demo again",
        user_id: OWNER,
        channel_id: "C1",
        team_id: TEAM,
      });
      expect((await postSigned(base, "/slack/events", fresh, "form", SECRET)).status).toBe(200);
      await eventually(async () => (await conversations()) === 2, 10_000, "new conversation");
    } finally {
      await restarted.stop();
    }
  });

  it("finding 10c: a request stamped more than five minutes in the future is refused; one a minute ahead (clock skew) is accepted", async () => {
    bot = await slackBot();
    const future = await bot.command("ask demo hello", OWNER, "C1", { timestamp: nowSeconds() + 6 * 60 });
    expect(future.status).toBe(401);
    await settled(bot);
    expect(await conversations()).toBe(0);
    expect(bot.slack.responses).toHaveLength(0);
    const skewed = await bot.command("ask demo hello", OWNER, "C1", { timestamp: nowSeconds() + 60 });
    expect(skewed.status).toBe(200);
    await eventually(async () => (await conversations()) === 1, 10_000, "accepted");
  });
});

describe("seen signed requests", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("a key is new once; keys older than the window and its margin are forgotten, in the intake database", async () => {
    env = await testEngine();
    const store = new IntakeStore(path.join(tempDir(), "intake.db"));
    try {
      const seen = new SeenRequests(store, env.clock);
      expect(await seen.firstTime("1700000000", "v0=aa")).toBe(true);
      expect(await seen.firstTime("1700000000", "v0=aa")).toBe(false);
      env.clock.advance(SIGNATURE_WINDOW_MS); // still within the window's margin
      expect(await seen.firstTime("1700000300", "v0=bb")).toBe(true);
      expect(await seen.firstTime("1700000000", "v0=aa")).toBe(false);
      env.clock.advance(3 * 60_000); // the first key is now older than the window plus its margin
      await seen.pruneNow();
      expect(store.signatures()).toEqual(["sig:1700000300:v0=bb"]);
      // Nothing on this path touches the main database.
      expect(await env.db.selectFrom("slack_events").select("event_id").execute()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
