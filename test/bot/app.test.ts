import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../src/engine/system/processes.js";
import { inputText } from "../support/fakeModel.js";
import { messageEvent, appMentionEvent } from "../support/slackRequests.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";
import { settled } from "../support/settled.js";

const METRICS_TOKEN = "app-test-metrics-token-0123456789";
const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };

// The real Bolt app over signed HTTP, the real notifier, workers and Codex binary; Slack and the
// model are fakes on 127.0.0.1.
describe("Slack app end to end", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const rootIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  it("/codex ask demo hello → ephemeral ack, root message, the answer in its thread; a thread reply continues the same Codex thread", async () => {
    bot = await slackBot();
    bot.model.enqueue(
      { kind: "text", text: "Bonjour depuis Codex 5521" },
      { kind: "text", text: "Deuxième réponse" },
    );
    const res = await bot.command("ask demo hello");
    expect(res.status).toBe(200);
    const ack = await bot.response(res.responseId);
    expect(ack.text).toMatch(/occupe|file/);
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root message");
    const answer = await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Bonjour depuis Codex 5521")),
      45_000,
      "answer in thread",
    );
    expect(answer.thread_ts).toBe(root.ts);
    await eventually(
      () =>
        JSON.stringify(bot.slack.messages("C1").find((m) => m.ts === root.ts)?.blocks ?? "").includes("✅") ||
        bot.slack.messages("C1").find((m) => m.ts === root.ts)!.updates > 0,
      10_000,
      "root edited",
    );

    const reply = await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "et ensuite ?",
        ts: "1800000000.000100",
        thread_ts: root.ts,
      }),
    );
    expect(reply.status).toBe(200);
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Deuxième réponse")),
      45_000,
      "second answer",
    );
    expect(inputText(bot.model.requests[1]!)).toContain("Bonjour depuis Codex 5521");
    expect(rootIn("C1")).toHaveLength(1);
  });

  it("the Stop button interrupts a running agent; the clicker must be allowed to", async () => {
    bot = await slackBot();
    bot.model.enqueue({ kind: "hang" });
    await bot.command("ask demo long task");
    const conversation = await eventually(
      async () => bot.db.selectFrom("conversations").selectAll().executeTakeFirst(),
      10_000,
      "conversation",
    );
    const running = await eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .selectAll()
          .where("codex_pid", "is not", null)
          .executeTakeFirst()) ?? null,
      30_000,
      "codex to start",
    );
    const root = await eventually(() => rootIn("C1")[0], 10_000, "root");
    expect(JSON.stringify(root.blocks)).toContain("conversation.stop"); // the button is there while it runs
    const refused = await bot.click("conversation.stop", conversation.id, root.ts, OTHER);
    expect(refused.status).toBe(200);
    expect((await bot.response(refused.responseId)).text).toMatch(/seuls l’auteur|introuvable/i);
    expect(processStartTime(running.codex_pid!)).toBe(running.codex_start_time); // still running

    const stop = await bot.click("conversation.stop", conversation.id, root.ts, OWNER);
    expect(stop.status).toBe(200);
    await eventually(
      async () =>
        (
          await bot.db
            .selectFrom("prompt_queue")
            .select("status")
            .where("id", "=", running.id)
            .executeTakeFirst()
        )?.status === "cancelled",
      20_000,
      "cancelled",
    );
    await eventually(() => processStartTime(running.codex_pid!) === null, 10_000, "codex gone");
    // Told once, in the thread for everyone (no per-item notice; the state message says it too).
    await eventually(
      () =>
        bot.slack.thread("C1", root.ts).find((m) => m.text === `Arrêté par <@${OWNER}> : le tour en cours.`),
      15_000,
      "the stop's summary in the thread",
    );
  });

  it("bad and stale signatures get 401 and change nothing", async () => {
    bot = await slackBot();
    const bad = await bot.command("ask demo hello", OWNER, "C1", { signature: "v0=deadbeef" });
    const stale = await bot.command("ask demo hello", OWNER, "C1", {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect([bad.status, stale.status]).toEqual([401, 401]);
    const ok = await bot.command("status"); // positive control: a good signature passes
    expect(ok.status).toBe(200);
    await bot.response(ok.responseId);
    const conversations = await bot.db.selectFrom("conversations").select("id").execute();
    expect(conversations).toHaveLength(0);
    expect(bot.slack.callsTo("chat.postMessage")).toHaveLength(0);
  });

  it("a private project is 'not found' for a non-owner, and works for its owner and admins", async () => {
    bot = await slackBot();
    const other = await bot.command("ask demo hello", OTHER);
    expect((await bot.response(other.responseId)).text).toMatch(/projet introuvable : demo/i);
    const projects = await bot.command("projects", OTHER);
    expect(JSON.stringify(await bot.response(projects.responseId))).not.toContain("demo");
    const owners = await bot.command("projects", OWNER);
    expect(JSON.stringify(await bot.response(owners.responseId))).toContain("demo");
    const admins = await bot.command("projects", ADMIN);
    expect(JSON.stringify(await bot.response(admins.responseId))).toContain("demo");
    expect(await bot.db.selectFrom("conversations").select("id").execute()).toHaveLength(0);
  });

  it("bad input gets an ephemeral usage line; project admin is for admins only", async () => {
    bot = await slackBot();
    const res = await bot.command("ask demo");
    expect(res.status).toBe(200);
    expect((res.json as { text: string; response_type: string }).response_type).toBe("ephemeral");
    expect((res.json as { text: string }).text).toContain("/codex ask");
    const denied = await bot.command(`project add other /tmp`, OWNER);
    expect((await bot.response(denied.responseId)).text).toMatch(/réservé aux admins/i);
    // A directory of its own: projects never overlap (issue 16), so demo's path would be refused.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-other-"));
    const added = await bot.command(`project add other ${otherDir}`, ADMIN);
    expect((await bot.response(added.responseId)).text).toContain("other");
    const missing = await bot.command(`project add ghost /nonexistent/path`, ADMIN);
    expect((await bot.response(missing.responseId)).text).toContain("n’est pas un dossier");
    // A directory holding codexpi's data directory is refused, both paths named.
    const holder = path.dirname(bot.config.dataDir);
    const holding = await bot.command(`project add holder ${holder}`, ADMIN);
    expect((await bot.response(holding.responseId)).text).toContain(
      `contient le dossier de données de codexpi (${fs.realpathSync(bot.config.dataDir)})`,
    );
    fs.rmSync(otherDir, { recursive: true, force: true });
  });

  it("requests from another workspace are refused", async () => {
    bot = await slackBot();
    const res = await bot.command("ask demo hello", OWNER, "C1", { team: "T9999" });
    expect(res.status).toBe(200); // acked so that Slack does not retry, and ignored
    await settled(bot);
    expect(await bot.db.selectFrom("conversations").select("id").execute()).toHaveLength(0);
    expect(bot.slack.responses).toHaveLength(0);
  });

  it("a mention starts a conversation in the user's thread; a retried event is handled once", async () => {
    bot = await slackBot();
    bot.model.enqueue({ kind: "text", text: "réponse à la mention" });
    const event = appMentionEvent({
      user: OWNER,
      channel: "C2",
      text: `<@${bot.slack.botUserId}> demo regarde ça`,
      ts: "1800000001.000100",
    });
    await bot.event(event, "EvSAME");
    await bot.event(event, "EvSAME"); // Slack's retry
    const answer = await eventually(
      () => bot.slack.thread("C2", "1800000001.000100").find((m) => m.text.includes("réponse à la mention")),
      45_000,
      "answer",
    );
    expect(answer.thread_ts).toBe("1800000001.000100");
    expect(await bot.db.selectFrom("conversations").select("id").execute()).toHaveLength(1);
    // The bot's own messages never start anything.
    await bot.event({
      ...messageEvent({
        user: bot.slack.botUserId,
        channel: "C2",
        text: "demo again",
        ts: "1800000002.000100",
        thread_ts: "1800000001.000100",
      }),
      bot_id: bot.slack.botId,
    });
    await settled(bot);
    expect(await bot.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(1);
  });

  it("GET /healthz reports the checks and gauges; /metrics is Prometheus text", async () => {
    bot = await slackBot({ env: { CODEXPI_METRICS_TOKEN: METRICS_TOKEN } });
    // On Slack's listener the detail takes the token (test/bot/metricsAccess.test.ts: without it).
    const health = await fetch(`${bot.base}/healthz`, { headers: bearer });
    expect(health.status).toBe(200);
    const body = (await health.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      ok: true,
      database: true,
      codex: { found: true },
      queue: { queued: 0, running: 0 },
    });
    expect((body.codex as { version: string }).version).toContain("0.171.0");
    expect((body.lease as { holder: string }).holder).toBe(bot.bot.engine.owner);
    const metrics = await (await fetch(`${bot.base}/metrics`, { headers: bearer })).text();
    expect(metrics).toMatch(/^codexpi_queue_queued 0$/m);
  });

  it("/healthz answers 503 naming the failing check", async () => {
    bot = await slackBot({ env: { CODEX_BIN: "/nonexistent/codex" } });
    // The loopback metrics listener gives the detail; Slack's listener only the verdict.
    const health = await fetch(`${bot.metricsBase}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { failing: string[] }).failing).toEqual(["codex"]);
    const bare = await fetch(`${bot.base}/healthz`);
    expect(bare.status).toBe(503);
    expect(await bare.json()).toEqual({ ok: false });
  });
});

describe("Slack app in Socket Mode", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  it("receives /codex over the socket, acks the envelope, and answers in the thread; health has its own port", async () => {
    bot = await slackBot({ socket: true });
    bot.model.enqueue({ kind: "text", text: "réponse par socket" });
    await bot.slack.socket.waitForConnection(10_000);
    const { slashCommandPayload } = await import("../support/slackRequests.js");
    const ack = await bot.slack.socket.send(
      "slash_commands",
      slashCommandPayload({
        text: "ask demo hello",
        user_id: OWNER,
        channel_id: "C3",
        team_id: "T0001",
        response_url: bot.slack.responseUrl("s1"),
      }),
      {
        acceptsResponsePayload: true,
      },
    );
    expect(ack.envelope_id).toBeTruthy();
    const root = await eventually(
      () => bot.slack.messages("C3").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      30_000,
      "root",
    );
    await eventually(
      () => bot.slack.thread("C3", root.ts).find((m) => m.text.includes("réponse par socket")),
      45_000,
      "answer",
    );
    expect(bot.bot.slack?.mode).toBe("socket");
    const health = await fetch(`http://127.0.0.1:${bot.bot.healthPort}/healthz`);
    expect(health.status).toBe(200);
  });

  it("a DM starts a conversation in its own thread; the App Home shows the overview", async () => {
    bot = await slackBot({ socket: true });
    bot.model.enqueue({ kind: "text", text: "réponse en privé" });
    await bot.slack.socket.waitForConnection(10_000);
    const { eventPayload } = await import("../support/slackRequests.js");
    const dm = bot.slack.dmChannel(OWNER);
    await bot.slack.socket.send(
      "events_api",
      eventPayload({
        event: messageEvent({
          user: OWNER,
          channel: dm,
          text: "demo liste les fichiers",
          ts: "1800000003.000100",
        }),
        team_id: "T0001",
      }),
    );
    await eventually(
      () => bot.slack.thread(dm, "1800000003.000100").find((m) => m.text.includes("réponse en privé")),
      45_000,
      "DM answer",
    );
    await bot.slack.socket.send(
      "events_api",
      eventPayload({
        event: { type: "app_home_opened", user: OWNER, channel: dm, tab: "home" },
        team_id: "T0001",
      }),
    );
    const view = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.publish"),
      10_000,
      "home view",
    );
    expect(view.user_id).toBe(OWNER);
    const text = JSON.stringify(view.view);
    for (const part of ["Décisions en attente", "Incidents", "Politique d’exécution", "Spécialistes"])
      expect(text).toContain(part);
    expect(text).toContain("demo"); // the owner sees their project's limit
  });
});
