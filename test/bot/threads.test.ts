import { afterEach, describe, expect, it } from "vitest";
import { messageEvent } from "../support/slackRequests.js";
import { OWNER, eventually, slackBot } from "../support/slackBot.js";
import { settled } from "../support/settled.js";

// What a person sees in a conversation's thread, through the real app, notifier, workers and
// Codex binary (Slack and the model faked on 127.0.0.1).
describe("a conversation's thread in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const rootIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const runningCodex = async () =>
    (await bot.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("codex_pid", "is not", null)
      .where("status", "=", "running")
      .executeTakeFirst()) ?? null;

  it("a follow-up written while the agent runs is acknowledged once with its position; Stop then tells the thread once, visibly, what it stopped (the running turn and the cancelled follow-up); a second click says there is nothing to stop and posts nothing", async () => {
    bot = await slackBot();
    bot.model.enqueue({ kind: "hang" });
    await bot.command("ask demo tâche longue");
    await eventually(runningCodex, 30_000, "codex to start");
    const root = await eventually(() => rootIn("C1")[0], 15_000, "root");

    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "et vérifie aussi les tests",
        ts: "1800000000.000100",
        thread_ts: root.ts,
      }),
    );
    const ack = await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Relance en file")),
      20_000,
      "the follow-up's acknowledgement",
    );
    expect(ack.text).toBe("Relance en file d’attente (position 1).");
    expect(await bot.db.selectFrom("prompt_queue").select("status").execute()).toEqual(
      expect.arrayContaining([{ status: "running" }, { status: "queued" }]),
    );

    const conversationId = (await bot.db.selectFrom("conversations").select("id").executeTakeFirstOrThrow())
      .id;
    const stop = await bot.click("conversation.stop", conversationId, root.ts, OWNER);
    expect(stop.status).toBe(200);
    const summary = `Arrêté par <@${OWNER}> : le tour en cours, 1 relance en attente annulée.`;
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text === summary),
      20_000,
      "the stop's summary in the thread",
    );
    await eventually(
      async () =>
        (await bot.db.selectFrom("prompt_queue").select("status").execute()).every(
          (i) => i.status === "cancelled",
        ),
      20_000,
      "both items cancelled",
    );
    // Clicked again (the button was still on someone's screen): nothing left to stop, said to
    // the clicker alone; the thread gets no second summary.
    const again = await bot.click("conversation.stop", conversationId, root.ts, OWNER);
    expect((await bot.response(again.responseId)).text).toBe("Rien à arrêter : l’agent a déjà fini.");
    await settled(bot);
    const thread = bot.slack.thread("C1", root.ts).filter((m) => m.ts !== root.ts);
    expect(thread.filter((m) => m.text.includes("Relance"))).toHaveLength(1);
    expect(thread.filter((m) => /arrêté/i.test(m.text))).toHaveLength(1);
    expect(thread).toHaveLength(2);
    // The first click got no ephemeral answer: the visible summary is the answer.
    expect(bot.slack.responses.filter((r) => r.id === stop.responseId)).toEqual([]);
    // The state message shows the stop to everyone following the thread.
    const rootNow = bot.slack.messages("C1").find((m) => m.ts === root.ts)!;
    expect(JSON.stringify(rootNow.blocks)).toContain("🛑");
  });

  it("a follow-up to a finished conversation is not acknowledged: it starts at once", async () => {
    bot = await slackBot();
    bot.model.enqueue(
      { kind: "text", text: "Première réponse 4411" },
      { kind: "text", text: "Seconde 4412" },
    );
    await bot.command("ask demo bonjour");
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root");
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Première réponse 4411")),
      45_000,
      "first answer",
    );
    await settled(bot);
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "et ensuite ?",
        ts: "1800000000.000200",
        thread_ts: root.ts,
      }),
    );
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Seconde 4412")),
      45_000,
      "second answer (the control: the reply was taken)",
    );
    await settled(bot);
    expect(bot.slack.thread("C1", root.ts).filter((m) => m.text.includes("Relance"))).toEqual([]);
  });

  it("a failure gives one thread notice and one DM: the incident's when one opens, else the failure's", async () => {
    // The failure's DM for a turn of any length (by default only after a minute: S-QUIET-02).
    bot = await slackBot({ env: { CODEXPI_DONE_DM_SECONDS: "0" } });
    const dm = bot.slack.dmChannel(OWNER);
    bot.model.enqueue({ kind: "fail", message: "modèle en panne" });
    await bot.command("ask demo casse tout");
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root");
    await eventually(() => bot.slack.messages(dm)[0], 45_000, "a DM");
    await eventually(
      async () => (await bot.db.selectFrom("incidents").select("id").executeTakeFirst()) ?? null,
      10_000,
      "the incident",
    );
    await settled(bot);
    const notices = bot.slack.thread("C1", root.ts).filter((m) => m.ts !== root.ts);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/L’agent a échoué/);
    const dms = bot.slack.messages(dm);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.text).not.toMatch(/Ta demande dans/); // the incident's DM, not the failure's
    expect(JSON.stringify(rootIn("C1")[0]!.blocks)).toContain("❌"); // the state message still tells

    // Without incident DMs, the failure's DM is the one.
    const off = await bot.command("notify incidents off");
    expect((await bot.response(off.responseId)).text).toBeTruthy();
    bot.model.enqueue({ kind: "fail", message: "modèle encore en panne" });
    await bot.command("ask demo casse encore");
    await eventually(() => rootIn("C1")[1], 30_000, "second root");
    await eventually(() => bot.slack.messages(dm)[1], 45_000, "a second DM");
    await settled(bot);
    const second = bot.slack.messages(dm).slice(1);
    expect(second).toHaveLength(1);
    expect(second[0]!.text).toMatch(/Ta demande dans \*demo\* a échoué/);
  });

  it("/codex with an unknown sub-command says so (a known one does not)", async () => {
    bot = await slackBot();
    // Both are answered inline, in the command's ack.
    const res = await bot.command("nonsense");
    expect((res.json as { text: string }).text).toBe(
      "Commande inconnue : `nonsense`. Tape `/codex help` pour la liste.",
    );
    const usage = await bot.command("ask demo");
    expect((usage.json as { text: string }).text).toMatch(/\/codex ask/);
    expect((usage.json as { text: string }).text).not.toMatch(/Commande inconnue/);
  });
});
