import { createEngineApi } from "../../src/engine/api/index.js";
import fs from "node:fs";
import path from "node:path";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { webClientOptions } from "../../src/bot/app.js";
import { RunMessages } from "../../src/bot/notifier/runMessages.js";
import { SlackPoster } from "../../src/bot/notifier/poster.js";
import { SlackAddresses } from "../../src/bot/store/addresses.js";
import { SlackPosts } from "../../src/bot/store/posts.js";
import { newId } from "../../src/engine/ids.js";
import { startRun } from "../../src/engine/runs/index.js";
import type { EventOf } from "../../src/engine/outbox.js";
import { pendingEvents, type OutboxEntry } from "../../src/engine/outboxQueue.js";
import type { FakeSlackMessage } from "../support/fakeSlack.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { inputText } from "../support/fakeModel.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";
import { APPROVE_PLAN, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "../engine/runs/runEnv.js";
import { askedInChannel } from "../support/slackAsked.js";

const verdict = (decision: "approve" | "correct" | "block", feedback: string) =>
  `Relu.\nCODEXPI_SUPERVISION ${JSON.stringify({ decision, feedback })}`;
const PLAN = [
  {
    id: "charge",
    order: 1,
    target: "demo",
    title: "Réduire la charge",
    risk: "code",
    prompt: "Corrige la charge du traitement de fond.",
  },
];
const planForm = (text: string) => ({ "run.plan": { "run.plan.value": text } });
const buttonsOf = (m: FakeSlackMessage | undefined) =>
  ((m?.blocks ?? []) as Array<{ elements?: Array<{ type: string; action_id: string; value?: string }> }>)
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.type === "button");

// Autonomous runs through the real app, notifier, workers and Codex binary: the thread in the
// channel shows the run's root (kept up to date) and each master verdict in order.
describe("autonomous runs in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  /** The seeds' master agent: execution group `__global_agent__`, no owner. */
  async function addMaster() {
    const dir = path.join(path.dirname(bot.config.dataDir), "master");
    fs.mkdirSync(dir, { recursive: true });
    await bot.db
      .insertInto("projects")
      .values({
        id: newId(),
        name: "Agent maître",
        path: dir,
        owner_id: null,
        full_access: 1,
        execution_group: "__global_agent__",
        merge_confirmation_required: 0,
        channel_id: null,
        role: "project",
        created_at: Date.now(),
      })
      .execute();
  }

  const rootIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const replies = (root: FakeSlackMessage) =>
    bot.slack.thread(root.channel, root.ts).filter((m) => m.ts !== root.ts);
  const current = (ts: string) => bot.slack.messages("C1").find((m) => m.ts === ts);
  const runRow = () => bot.db.selectFrom("remediation_runs").selectAll().executeTakeFirstOrThrow();

  it("run start opens the plan modal; the submitted plan runs, each verdict lands in the run's thread in order and the root ends COMPLETED", async () => {
    bot = await slackBot();
    await addMaster();
    const none = await bot.command("run");
    expect((await bot.response(none.responseId)).text).toMatch(/Aucun run autonome/);

    await bot.command("run start");
    const opened = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open"),
      10_000,
      "modal",
    );
    expect(opened.view.callback_id).toBe("run.start");
    expect(JSON.parse(opened.view.private_metadata as string)).toEqual({ channelId: "C1" });

    const notJson = await bot.submit("run.start", planForm("[{"), JSON.stringify({ channelId: "C1" }));
    expect(notJson.json).toMatchObject({
      response_action: "errors",
      errors: { "run.plan": expect.stringMatching(/JSON valide/) },
    });
    const badPlan = await bot.submit(
      "run.start",
      planForm('[{"id":"x"}]'),
      JSON.stringify({ channelId: "C1" }),
    );
    expect(badPlan.json).toMatchObject({
      response_action: "errors",
      errors: { "run.plan": expect.stringMatching(/plan invalide/i) },
    });

    bot.model.enqueue(
      { kind: "text", text: verdict("approve", "plan ok") },
      { kind: "text", text: "Correction appliquée, preuve partielle." },
      { kind: "text", text: verdict("correct", "Ajoute la mesure avant/après") },
      { kind: "text", text: "Mesures ajoutées : 80 % → 20 %." },
      { kind: "text", text: verdict("approve", "Mesures conformes") },
      { kind: "text", text: "Synthèse finale : la charge est réduite." },
    );
    const ok = await bot.submit(
      "run.start",
      planForm(JSON.stringify(PLAN)),
      JSON.stringify({ channelId: "C1" }),
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toBeFalsy(); // the modal closes
    const again = await bot.submit(
      "run.start",
      planForm(JSON.stringify(PLAN)),
      JSON.stringify({ channelId: "C1" }),
      ADMIN,
    );
    expect(again.json).toMatchObject({
      response_action: "errors",
      errors: { "run.plan": expect.stringMatching(/déjà en cours/) },
    });

    const root = await eventually(() => rootIn("C1")[0], 30_000, "root message");
    expect(root.text + JSON.stringify(root.blocks)).toContain("Réduire la charge");
    const runAddress = async () =>
      bot.db
        .selectFrom("slack_addresses")
        .select("thread_ts")
        .where("subject_kind", "=", "run")
        .where("subject_id", "=", (await runRow()).id)
        .executeTakeFirst();
    await eventually(async () => (await runAddress())?.thread_ts === root.ts, 10_000, "thread recorded");
    await eventually(async () => (await runRow()).status === "COMPLETED", 90_000, "run completed");
    await eventually(
      () => JSON.stringify(current(root.ts)?.blocks).includes("terminé"),
      15_000,
      "root shows COMPLETED",
    );
    const thread = await eventually(
      () => {
        const r = replies(root);
        return r.some((m) => m.text.includes("Synthèse finale")) ? r : null;
      },
      15_000,
      "final report",
    );
    const texts = thread.map((m) => `${m.text}\n${JSON.stringify(m.blocks)}`);
    const at = (needle: string) => texts.findIndex((x) => x.includes(needle));
    expect(at("plan ok")).toBeGreaterThanOrEqual(0);
    expect(texts[at("plan ok")]).toContain("le plan");
    expect(at("Ajoute la mesure avant/après")).toBeGreaterThan(at("plan ok"));
    expect(texts[at("Ajoute la mesure avant/après")]).toContain("correction demandée");
    expect(at("Mesures conformes")).toBeGreaterThan(at("Ajoute la mesure avant/après"));
    expect(at("Synthèse finale : la charge est réduite.")).toBeGreaterThan(at("Mesures conformes"));
    expect(thread).toHaveLength(4); // three verdicts and the report, nothing twice
    expect(rootIn("C1")).toHaveLength(1);
    expect(inputText(bot.model.requests[2]!)).toContain("Correction appliquée, preuve partielle."); // the master reviewed the agent's report

    const detail = await bot.command("run");
    const shown = JSON.stringify(await bot.response(detail.responseId));
    expect(shown).toContain("Réduire la charge");
    expect(shown).toContain("terminé");
    const others = await bot.command("run", OTHER);
    expect((await bot.response(others.responseId)).text).toMatch(/Aucun run autonome/);
  });

  it("a block posts Resume / Revise in the thread: others are refused, a bad revision is named, the owner's resume goes on (once)", async () => {
    bot = await slackBot();
    await addMaster();
    bot.model.enqueue(
      { kind: "text", text: verdict("approve", "plan ok") },
      { kind: "text", text: "Prêt à déployer." },
      { kind: "text", text: verdict("block", "Il faut l’accord du propriétaire pour déployer.") },
    );
    await bot.command("run start");
    await eventually(() => bot.slack.views.find((v) => v.method === "views.open"), 10_000, "modal");
    expect(
      (
        await bot.submit(
          "run.start",
          planForm(JSON.stringify({ steps: PLAN })),
          JSON.stringify({ channelId: "C1" }),
        )
      ).status,
    ).toBe(200);
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root message");
    const blocked = await eventually(
      () => replies(root).find((m) => buttonsOf(m).some((b) => b.action_id === "run.resume")),
      60_000,
      "blocked message",
    );
    const run = await runRow();
    expect(run.status).toBe("BLOCKED");
    expect(buttonsOf(blocked).map((b) => [b.action_id, b.value])).toEqual([
      ["run.resume", run.id],
      ["run.revise", run.id],
    ]);
    const texts = replies(root).map((m) => m.text + JSON.stringify(m.blocks));
    expect(texts.findIndex((x) => x.includes("Il faut l’accord du propriétaire"))).toBeLessThan(
      texts.findIndex((x) => x.includes("run.resume")),
    );
    await eventually(
      () => JSON.stringify(current(root.ts)?.blocks).includes("bloqué"),
      15_000,
      "root shows BLOCKED",
    );

    const refused = await bot.click("run.resume", run.id, blocked.ts, OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    const refusedRevise = await bot.click("run.revise", run.id, blocked.ts, OTHER);
    expect((await bot.response(refusedRevise.responseId)).text).toMatch(/introuvable/i);
    expect(bot.slack.views.filter((v) => v.method === "views.open")).toHaveLength(1);
    expect((await runRow()).status).toBe("BLOCKED");

    await bot.click("run.revise", run.id, blocked.ts, OWNER);
    const revise = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open" && v.view.callback_id === "run.revise"),
      10_000,
      "revise modal",
    );
    const input = (revise.view.blocks as Array<{ type: string; element?: { initial_value?: string } }>).find(
      (b) => b.type === "input",
    )!;
    const current_plan = JSON.parse(input.element!.initial_value!) as Array<Record<string, unknown>>;
    expect(current_plan[0]).toMatchObject({ id: "charge", target: "demo", risk: "code" });
    const riskier = JSON.stringify([{ ...current_plan[0], risk: "deploy" }]);
    const refusedPlan = await bot.submit(
      "run.revise",
      planForm(riskier),
      revise.view.private_metadata as string,
    );
    expect(refusedPlan.json).toMatchObject({
      response_action: "errors",
      errors: { "run.plan": expect.stringContaining("ordre, la cible ou le risque") },
    });

    bot.model.enqueue(
      { kind: "text", text: "Accord reçu, déployé." },
      { kind: "text", text: verdict("approve", "Déploiement vérifié") },
      { kind: "text", text: "Synthèse finale : déployé." },
    );
    const resume = await bot.click("run.resume", run.id, blocked.ts, OWNER);
    expect((await bot.response(resume.responseId)).text).toMatch(/Run repris/);
    const twice = await bot.click("run.resume", run.id, blocked.ts, OWNER);
    expect((await bot.response(twice.responseId)).text).toMatch(/n’est pas bloqué|introuvable/);
    await eventually(
      () => buttonsOf(current(blocked.ts)).length === 0,
      15_000,
      "blocked message without buttons",
    );
    await eventually(async () => (await runRow()).status === "COMPLETED", 90_000, "run completed");
    await eventually(
      () => replies(root).some((m) => m.text.includes("Synthèse finale")),
      15_000,
      "final report",
    );
    const all = replies(root).map((m) => m.text + JSON.stringify(m.blocks));
    expect(all.findIndex((x) => x.includes("Déploiement vérifié"))).toBeGreaterThan(
      all.findIndex((x) => x.includes("Il faut l’accord du propriétaire")),
    );
    await eventually(
      () => JSON.stringify(current(root.ts)?.blocks).includes("terminé"),
      15_000,
      "root shows COMPLETED",
    );
  });

  it("/codex run resume --revise and /codex run cancel act for the owner; the root says cancelled", async () => {
    bot = await slackBot();
    await addMaster();
    const nothing = await bot.command("run resume --revise");
    expect((await bot.response(nothing.responseId)).text).toMatch(/introuvable/i);
    bot.model.enqueue({ kind: "hang" });
    await bot.command("run start");
    await eventually(() => bot.slack.views.find((v) => v.method === "views.open"), 10_000, "modal");
    await bot.submit("run.start", planForm(JSON.stringify(PLAN)), JSON.stringify({ channelId: "C1" }));
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root message");
    const notBlocked = await bot.command("run resume --revise");
    expect((await bot.response(notBlocked.responseId)).text).toMatch(/n’est pas bloqué/);
    const resume = await bot.command("run resume");
    expect((await bot.response(resume.responseId)).text).toMatch(/n’est pas bloqué/);
    const byOther = await bot.command("run cancel", OTHER);
    expect((await bot.response(byOther.responseId)).text).toMatch(/introuvable/i);
    const cancel = await bot.command("run cancel");
    expect((await bot.response(cancel.responseId)).text).toMatch(/annulé/);
    expect((await runRow()).status).toBe("CANCELLED");
    await eventually(
      () => JSON.stringify(current(root.ts)?.blocks).includes("annulé"),
      15_000,
      "root shows CANCELLED",
    );
  });
});

// The renderer alone, over the engine's run and a fake Slack: no Codex, a fake clock.
describe("run messages (outbox → the run's thread)", () => {
  let env: RunEnv;
  let slack: FakeSlack;
  afterEach(async () => {
    await slack?.close();
    await env?.close();
  });

  async function setup() {
    env = await runEnv();
    slack = await startFakeSlack();
    const client = new WebClient("xoxb-test", webClientOptions({ slack: { apiUrl: slack.apiUrl } } as never));
    const renderer = () =>
      new RunMessages(
        createEngineApi(env.engine),
        client,
        new SlackPoster(new SlackPosts(env.db, env.clock), client),
        new SlackAddresses(env.db, env.clock),
        "fr",
        env.clock,
      );
    return { renderer };
  }

  /** Hands every pending run event to the renderer, in order (what the notifier does), and marks it done. */
  async function deliver(renderer: RunMessages) {
    const { entries: rows } = await pendingEvents(env.db);
    const isRunEntry = (r: OutboxEntry): r is OutboxEntry<EventOf<"run.updated" | "run.verdict">> =>
      r.event.kind === "run.updated" || r.event.kind === "run.verdict";
    const relevant = await renderer.relevant(rows.filter(isRunEntry));
    for (const row of rows) {
      if (relevant.has(row.id) && isRunEntry(row)) {
        env.clock.advance(1_000); // the root is edited at most once a second
        await renderer.handle(row);
      }
      await env.db.updateTable("outbox").set({ status: "done" }).where("id", "=", row.id).execute();
    }
    return relevant;
  }

  it("events of a run started outside Slack are not relevant", async () => {
    const { renderer } = await setup();
    await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const relevant = await deliver(renderer());
    expect(relevant.size).toBe(0);
    expect(slack.callsTo("chat.postMessage")).toHaveLength(0);
  });

  it("posts the root and the verdicts once: a restarted renderer replaying the same events posts nothing twice", async () => {
    const { renderer } = await setup();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()], {
      onCreated: askedInChannel(env, "C1", "run"),
    });
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, "Fait.");
    await env.tick();
    await env.finishActive(run.id, verdict("block", "Accord du propriétaire requis"));
    await env.tick();
    const events = await env.db
      .selectFrom("outbox")
      .select("id")
      .where("status", "=", "pending")
      .where("kind", "like", "run.%")
      .execute();
    await deliver(renderer());
    const posted = slack.callsTo("chat.postMessage").length;
    const root = slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(root).toHaveLength(1);
    const thread = slack.thread("C1", root[0]!.ts).slice(1);
    expect(thread.map((m) => m.text).join("\n")).toMatch(/approuvé[\s\S]*bloqué/);
    expect(buttonsOf(thread.at(-1)).map((b) => b.action_id)).toEqual(["run.resume", "run.revise"]);
    // Replay every event through a new renderer (a restart before the outbox recorded them done).
    await env.db
      .updateTable("outbox")
      .set({ status: "pending" })
      .where(
        "id",
        "in",
        events.map((e) => e.id),
      )
      .execute();
    await deliver(renderer());
    expect(slack.callsTo("chat.postMessage")).toHaveLength(posted);
    expect(
      (
        await env.db
          .selectFrom("slack_addresses")
          .select("thread_ts")
          .where("subject_kind", "=", "run")
          .executeTakeFirstOrThrow()
      ).thread_ts,
    ).toBe(root[0]!.ts);
  });
});
