import { afterEach, describe, expect, it } from "vitest";
import { inputText } from "../support/fakeModel.js";
import { secondProject } from "../support/secondProject.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";
import { settled } from "../support/settled.js";

const DECISION =
  'Ready.\nCODEXPI_DECISION {"title":"Deploy","question":"Target?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}],"allow_multiple":false,"allow_custom":false}';

// Two people in one workspace, one with an English Slack locale and one with a French one, through
// the real app, notifier, workers and Codex binary (Slack and the model faked on 127.0.0.1). Their
// requests are sent at the same time on purpose: the work after an ack runs one item at a time,
// and each item must keep the language of the request that scheduled it.
describe("each person's language, and what a reader may do", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  type Button = { type: string; action_id: string; value: string };
  const buttonsOf = (blocks: unknown[] | undefined): Button[] =>
    (blocks ?? [])
      .flatMap((b) => ((b as { elements?: unknown[] }).elements ?? []) as Button[])
      .filter((e) => e.type === "button");
  const shown = (m: { text?: string; blocks?: unknown[] }) =>
    `${m.text ?? ""} ${JSON.stringify(m.blocks ?? [])}`;
  // Letters only the French catalog writes (the prompts and the model's answers here have none).
  const FRENCH = /[éèêàçù]/;
  // Words only the English catalog writes, among what these flows show.
  const ENGLISH = /Which project|Started in|Working|Reply in this thread|Answer sent|is done|Done in|Running/;

  it("S-LANG-06: an en-US and a fr-FR person each read only their language in everything they trigger (picker, acks, ephemerals, thread, DMs)", async () => {
    bot = await slackBot();
    await secondProject(bot); // with one project, no picker (S-CHAN-04)
    bot.slack.setUser(OWNER, { locale: "en-US" });
    bot.slack.setUser(ADMIN, { locale: "fr-FR" });
    const enDm = bot.slack.dmChannel(OWNER);
    const frDm = bot.slack.dmChannel(ADMIN);
    // Each person's locale read once first: a look-up slower than its bound (800 ms, to ack in
    // time) falls back to CODEXPI_LOCALE by design, which a loaded test machine could hit.
    await Promise.all([bot.command("help", OWNER), bot.command("help", ADMIN)]);
    // A DM without a project: the picker, both at once (the French one first, then the reverse).
    await Promise.all([
      bot.event(messageEvent({ user: ADMIN, channel: frDm, text: "hello", ts: "1800000000.000100" })),
      bot.event(messageEvent({ user: OWNER, channel: enDm, text: "hello", ts: "1800000000.000200" })),
    ]);
    const picker = (dm: string) =>
      eventually(
        () => bot.slack.messages(dm).find((m) => buttonsOf(m.blocks).length > 0),
        20_000,
        "a picker",
      );
    const [enPicker, frPicker] = await Promise.all([picker(enDm), picker(frDm)]);
    expect(enPicker.text).toMatch(/^Which project\?/);
    expect(frPicker.text).toMatch(/^Dans quel projet \?/);
    const choose = (p: typeof enPicker, user: string, dm: string) => {
      const b = buttonsOf(p.blocks)[0] as Button;
      return bot.click(b.action_id, b.value, p.ts, user, dm);
    };
    const [enClick, frClick] = await Promise.all([
      choose(enPicker, OWNER, enDm),
      choose(frPicker, ADMIN, frDm),
    ]);
    expect((await bot.response(enClick.responseId)).text).toBe("Started in *demo*.");
    expect((await bot.response(frClick.responseId)).text).toBe("Lancé dans *demo*.");

    // Commands at once: an unknown one, and a request each (ack, state message, answer, DM).
    const [enUnknown, frUnknown] = await Promise.all([
      bot.command("nonsense", OWNER),
      bot.command("nonsense", ADMIN),
    ]);
    expect((enUnknown.json as { text: string }).text).toMatch(/^Unknown command/);
    expect((frUnknown.json as { text: string }).text).toMatch(/^Commande inconnue/);
    await Promise.all([
      bot.command("ask demo say hi", OWNER, "C1"),
      bot.command("ask demo say hi", ADMIN, "C2"),
    ]);
    await eventually(
      () => bot.slack.messages("C1").some((m) => shown(m).includes("Reply in this thread")),
      30_000,
      "the English state message",
    );
    await eventually(
      () => bot.slack.messages("C2").some((m) => shown(m).includes("Réponds dans ce fil")),
      30_000,
      "the French state message",
    );
    // Everything settled: each request's answer is in its thread.
    for (const channel of ["C1", "C2", enDm, frDm])
      await eventually(() => bot.slack.messages(channel).some((m) => m.text === "ok"), 60_000, "the answers");
    const en = [...bot.slack.messages("C1"), ...bot.slack.messages(enDm)];
    const fr = [...bot.slack.messages("C2"), ...bot.slack.messages(frDm)];
    for (const e of bot.slack.ephemerals) (e.user === OWNER ? en : e.user === ADMIN ? fr : []).push(e);
    expect(en.length).toBeGreaterThanOrEqual(4);
    expect(fr.length).toBeGreaterThanOrEqual(4);
    for (const m of en) expect(shown(m)).not.toMatch(FRENCH);
    for (const m of fr) expect(shown(m)).not.toMatch(ENGLISH);
    // Positive controls of both detectors, on the same messages.
    expect(fr.some((m) => FRENCH.test(shown(m)))).toBe(true);
    expect(en.some((m) => ENGLISH.test(shown(m)))).toBe(true);
  });

  it("S-LANG-07: a decision's answer reaches the agent in the language of the person who answered", async () => {
    bot = await slackBot();
    bot.slack.setUser(OWNER, { locale: "en-US" });
    bot.slack.setUser(ADMIN, { locale: "fr-FR" });
    const decisionIn = async (user: string, channel: string) => {
      bot.model.enqueue({ kind: "text", text: DECISION });
      await bot.command("ask demo deploy it", user, channel);
      return eventually(
        () => bot.slack.messages(channel).find((m) => shown(m).includes("decision.option")),
        45_000,
        "the decision card",
      );
    };
    const enCard = await decisionIn(OWNER, "C1");
    const frCard = await decisionIn(ADMIN, "C2");
    expect(shown(enCard)).toContain("Target?");
    const option = (card: typeof enCard, id: string) =>
      buttonsOf(card.blocks).find((b) => b.value.endsWith(`|${id}`)) as Button;
    const staging = option(enCard, "staging");
    const production = option(frCard, "production");
    bot.model.enqueue({ kind: "text", text: "deployed" }, { kind: "text", text: "deployed" });
    const [enClick, frClick] = await Promise.all([
      bot.click(staging.action_id, staging.value, enCard.ts, OWNER, "C1"),
      bot.click(production.action_id, production.value, frCard.ts, ADMIN, "C2"),
    ]);
    expect((await bot.response(enClick.responseId)).text).toBe(
      "✅ Answer sent: the agent resumes the conversation.",
    );
    expect((await bot.response(frClick.responseId)).text).toBe(
      "✅ Réponse envoyée : l’agent reprend la conversation.",
    );
    const lastUserText = (body: Parameters<typeof inputText>[0]) =>
      inputText(body).split("\n").slice(-3).join("\n");
    const answered = await eventually(
      () => {
        const texts = bot.model.requests.map(lastUserText);
        const enText = texts.find((x) => x.includes("Staging") && /decision/i.test(x));
        const frText = texts.find((x) => x.includes("Production") && /décision/i.test(x));
        return enText && frText ? { enText, frText } : null;
      },
      45_000,
      "both answers at the model",
    );
    expect(answered.enText).toContain("The user’s answer to your decision “Deploy” (Target?): Staging");
    expect(answered.enText).not.toMatch(/Réponse de l’utilisateur/);
    expect(answered.frText).toContain(
      "Réponse de l’utilisateur à ta décision « Deploy » (Target?) : Production",
    );
  });

  it("S-SEE-03: a channel member of a visible project is told who may prompt when replying in a thread (once per thread, S-THREAD-01) or clicking its decision; S-SEE-04: someone who cannot see it still gets not found for its decision, pointed to /codex projects, never for a reply in its thread", async () => {
    bot = await slackBot();
    const MEMBER = "UMEMBER";
    bot.slack.setUser(MEMBER, { locale: "en-US" });
    bot.slack.setUser(OTHER, { locale: "en-US" });
    bot.slack.setChannel("CTEAM", { members: [OWNER, MEMBER] });
    await bot.db
      .updateTable("projects")
      .set({ channel_id: "CTEAM", visibility: "channel" })
      .where("name", "=", "demo")
      .execute();
    bot.model.enqueue({ kind: "text", text: DECISION });
    await bot.command("ask demo deploy it", OWNER, "CTEAM");
    const card = await eventually(
      () => bot.slack.messages("CTEAM").find((m) => shown(m).includes("decision.option")),
      45_000,
      "the decision card",
    );
    const root = bot.slack.messages("CTEAM").find((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(root).toBeDefined();
    const reply = (user: string, ts: string) =>
      bot.event(
        messageEvent({
          user,
          channel: "CTEAM",
          text: "and drop the tables",
          ts,
          thread_ts: root?.ts as string,
        }),
      );
    await reply(MEMBER, "1800000000.000500");
    const toMember = await eventually(
      () => bot.slack.ephemerals.find((e) => e.user === MEMBER),
      15_000,
      "the member's answer",
    );
    expect(toMember.text).toBe(
      `Only the people allowed to prompt *demo* (<@${OWNER}> owns it) and admins may prompt in this conversation; you may follow it. Your messages stay in the thread: the agent reads them, as context, with the next follow-up. To be allowed, ask <@${OWNER}> or an admin (<@${ADMIN}>): \`/codex project allow demo @you\`. (I won’t say this again in this thread.)`,
    );
    // Asking it by a mention: the same people, and how to be allowed.
    await bot.event(
      appMentionEvent({
        user: MEMBER,
        channel: "CTEAM",
        text: `<@${bot.slack.botUserId}> demo drop the tables`,
        ts: "1800000000.000550",
      }),
    );
    const mentioned = await eventually(
      () => bot.slack.ephemerals.find((e) => e.user === MEMBER && e.text.includes("(its owner)")),
      15_000,
      "the member's mention answer",
    );
    expect(mentioned.text).toBe(
      `Only <@${OWNER}> (its owner), the people they allow and admins may prompt in *demo*; you may follow its conversations. To be allowed, ask <@${OWNER}> or an admin: \`/codex project allow demo @you\`.`,
    );
    const staging = buttonsOf(card.blocks).find((b) => b.value.endsWith("|staging")) as Button;
    const memberClick = await bot.click(staging.action_id, staging.value, card.ts, MEMBER, "CTEAM");
    expect((await bot.response(memberClick.responseId)).text).toBe(
      `Only <@${OWNER}> (who was asked), the people allowed to prompt *demo* and admins may answer this decision; you may follow the conversation.`,
    );

    // Once the owner makes it private, the same person cannot see it: "not found", as if nothing
    // were there, with where to look (the same reply and click as above: the control).
    await bot.db.updateTable("projects").set({ visibility: "private" }).where("name", "=", "demo").execute();
    // A reply in its thread is never "not found" (the thread shows the project), and they were
    // told already: nothing more is said to them there.
    const toldBefore = bot.slack.ephemerals.filter((e) => e.user === MEMBER).length;
    await reply(MEMBER, "1800000000.000600");
    await settled(bot);
    expect(bot.slack.ephemerals.filter((e) => e.user === MEMBER)).toHaveLength(toldBefore);
    const hiddenClick = await bot.click(staging.action_id, staging.value, card.ts, MEMBER, "CTEAM");
    expect((await bot.response(hiddenClick.responseId)).text).toMatch(
      /^Decision not found\. `\/codex decisions`/,
    );
    const ask = await bot.command("ask nosuch hi", OTHER);
    expect((await bot.response(ask.responseId)).text).toBe(
      "Project not found: nosuch. `/codex projects` lists the projects you can use; an admin adds one with `/codex project add`.",
    );
    // Nothing ran for either (control: the owner's own answer goes through).
    expect(await bot.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(1);
    const ownerClick = await bot.click(staging.action_id, staging.value, card.ts, OWNER, "CTEAM");
    expect((await bot.response(ownerClick.responseId)).text).toMatch(/^✅/);
  });
});
