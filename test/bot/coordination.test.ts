import { afterEach, describe, expect, it } from "vitest";
import { inputText } from "../support/fakeModel.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

const DECISION =
  'Je peux déployer.\nCODEXPI_DECISION {"title":"Déploiement","question":"Quelle cible ?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}],"allow_multiple":false,"allow_custom":true}';

// Decisions, notifications and lists through the real app, workers and Codex binary.
describe("coordination in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const rootIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  it("an agent's decision becomes buttons in its thread; the owner's click resumes the same Codex session and disables the buttons", async () => {
    bot = await slackBot();
    bot.model.enqueue({ kind: "text", text: DECISION }, { kind: "text", text: "Déployé en staging." });
    await bot.command("ask demo déploie la branche");
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root");
    const decisionMsg = await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => JSON.stringify(m.blocks ?? []).includes("decision.option")),
      45_000,
      "decision buttons",
    );
    const answerIdx = bot.slack.thread("C1", root.ts).findIndex((m) => m.text.includes("Je peux déployer"));
    const decisionIdx = bot.slack.thread("C1", root.ts).findIndex((m) => m.ts === decisionMsg.ts);
    expect(answerIdx).toBeGreaterThanOrEqual(0);
    expect(decisionIdx).toBeGreaterThan(answerIdx); // the question comes after the answer that asks it
    const decision = await bot.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    // Click the button as Slack would: with the action id and value it carries.
    const buttons = (
      decisionMsg.blocks as Array<{ elements?: Array<{ type: string; action_id: string; value?: string }> }>
    ).flatMap((b) => b.elements ?? []);
    const staging = buttons.find((e) => e.type === "button" && e.value === `${decision.id}|staging`)!;
    const production = buttons.find((e) => e.type === "button" && e.value === `${decision.id}|production`)!;
    expect(staging.action_id).not.toBe(production.action_id); // Slack refuses duplicate action ids in a block

    const refused = await bot.click(staging.action_id, staging.value!, decisionMsg.ts, OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    const click = await bot.click(staging.action_id, staging.value!, decisionMsg.ts, OWNER);
    expect(click.status).toBe(200);
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Déployé en staging.")),
      45_000,
      "resumed answer",
    );
    expect(inputText(bot.model.requests[1]!)).toContain("Staging");
    expect(inputText(bot.model.requests[1]!)).toContain("Je peux déployer"); // same Codex thread
    await eventually(
      () =>
        !JSON.stringify(bot.slack.messages("C1").find((m) => m.ts === decisionMsg.ts)?.blocks ?? []).includes(
          "decision.option",
        ),
      15_000,
      "buttons removed",
    );
    const again = await bot.click(production.action_id, production.value!, decisionMsg.ts, OWNER);
    expect((await bot.response(again.responseId)).text).toBe(`Déjà répondu par <@${OWNER}> : Staging`);
  });

  it("/codex decisions, /codex specialists and /codex notify answer the asking user", async () => {
    bot = await slackBot();
    const decisions = await bot.command("decisions");
    expect(JSON.stringify(await bot.response(decisions.responseId))).toMatch(/aucune décision/i);
    const specialists = await bot.command("specialists");
    expect(JSON.stringify(await bot.response(specialists.responseId))).toContain("/codex specialist add");
    const off = await bot.command("notify decisions off");
    expect(JSON.stringify(await bot.response(off.responseId))).toBeTruthy();
    const row = await bot.db
      .selectFrom("notification_preferences")
      .selectAll()
      .where("user_id", "=", OWNER)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ decisions: 0, task_completion: 1, incidents: 1 });
    const usage = await bot.command("notify everything off");
    expect((usage.json as { text: string }).text).toContain("/codex notify");
  });

  it("a failed agent's incident is posted in the project's channel with its state kept up to date", async () => {
    bot = await slackBot();
    await bot.db.updateTable("projects").set({ channel_id: "CPROJ" }).where("name", "=", "demo").execute();
    bot.model.enqueue({ kind: "fail", message: "modèle en panne" });
    await bot.command("ask demo casse tout");
    const post = await eventually(() => bot.slack.messages("CPROJ")[0], 45_000, "incident post");
    expect(post.text + JSON.stringify(post.blocks)).toContain("demo");
    const incident = await bot.db.selectFrom("incidents").selectAll().executeTakeFirstOrThrow();
    expect(incident.status).toBe("OPEN"); // no self project here: it waits for one
    const list = await bot.command("incidents");
    expect(JSON.stringify(await bot.response(list.responseId))).toContain("demo");
  });

  it("/codex policy opens the form for admins only; a valid submission saves the policy, a bad one names the field", async () => {
    bot = await slackBot();
    const denied = await bot.command("policy", OWNER);
    expect((await bot.response(denied.responseId)).text).toMatch(/réservé aux admins/i);
    expect(bot.slack.views.filter((v) => v.method === "views.open")).toHaveLength(0);
    await bot.command("policy", ADMIN);
    const opened = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open"),
      10_000,
      "modal",
    );
    expect(JSON.stringify(opened.view)).toContain("policy.max_concurrent");
    const values = (v: Record<string, string>) =>
      Object.fromEntries(Object.entries(v).map(([f, x]) => [`policy.${f}`, { [`policy.${f}.value`]: x }]));
    const good = {
      max_concurrent: "3",
      load_pause_percent: "85",
      memory_pause_percent: "88",
      background_start_hour: "22",
      background_end_hour: "7",
    };
    const bad = await bot.submit("policy.edit", values({ ...good, max_concurrent: "0" }), "{}", ADMIN);
    expect(bad.json).toMatchObject({
      response_action: "errors",
      errors: { "policy.max_concurrent": expect.any(String) },
    });
    const byOwner = await bot.submit("policy.edit", values(good), "{}", OWNER);
    expect(byOwner.json).toMatchObject({ response_action: "errors" });
    const ok = await bot.submit("policy.edit", values(good), "{}", ADMIN);
    expect(ok.status).toBe(200);
    const saved = await bot.db
      .selectFrom("runtime_policies")
      .selectAll()
      .where("scope", "=", "global")
      .executeTakeFirstOrThrow();
    expect(saved).toMatchObject({
      max_concurrent: 3,
      load_pause_percent: 85,
      background_start_hour: 22,
      background_end_hour: 7,
      updated_by: ADMIN,
    });
  });

  it("/codex specialist add opens a form; its submission creates a BUILDING specialist, a bad description is named", async () => {
    bot = await slackBot();
    await bot.command("specialist add");
    await eventually(() => bot.slack.views.find((v) => v.method === "views.open"), 10_000, "modal");
    const form = (name: string, description: string, capabilities: string) => ({
      "specialist.add.name": { "specialist.add.name.value": name },
      "specialist.add.description": { "specialist.add.description.value": description },
      "specialist.add.capabilities": { "specialist.add.capabilities.value": capabilities },
    });
    const bad = await bot.submit(
      "specialist.add",
      form("Studio", "court", "design.interface"),
      JSON.stringify({ channelId: "C1" }),
    );
    expect(bad.json).toMatchObject({
      response_action: "errors",
      errors: { "specialist.add.description": expect.any(String) },
    });
    const ok = await bot.submit(
      "specialist.add",
      form(
        "Studio Interface",
        "Conçoit des interfaces PWA accessibles pour les projets.",
        "design.interface, design.ux",
      ),
      JSON.stringify({ channelId: "C1" }),
    );
    expect(ok.status).toBe(200);
    const s = await eventually(
      () => bot.db.selectFrom("specialist_agents").selectAll().executeTakeFirst(),
      10_000,
      "specialist",
    );
    expect(s).toMatchObject({
      status: "BUILDING",
      owner_id: OWNER,
      capabilities: JSON.stringify(["design.interface", "design.ux"]),
    });
  });
});
