import { afterEach, describe, expect, it } from "vitest";
import { secondProject } from "../support/secondProject.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

// A prompt without a project name: the DM's last project, else "which project?" with buttons;
// through the real app, workers and Codex binary (Slack and the model faked on 127.0.0.1).
describe("prompts without a project", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const conversations = () =>
    bot.db
      .selectFrom("conversations")
      .innerJoin("projects", "projects.id", "conversations.project_id")
      .select(["projects.name", "conversations.user_id"])
      .execute();
  const buttonsOf = (blocks: unknown[] | undefined) =>
    (blocks ?? [])
      .flatMap(
        (b) =>
          ((b as { elements?: unknown[] }).elements ?? []) as Array<{
            type: string;
            action_id: string;
            value: string;
            text: { text: string };
          }>,
      )
      .filter((e) => e.type === "button");

  it("a DM 'hello' without a project asks which one with buttons; the click runs it there; the next DM goes to that last project", async () => {
    bot = await slackBot();
    await secondProject(bot);
    bot.slack.setUser(OWNER, { locale: "en-US" });
    const dm = bot.slack.dmChannel(OWNER);
    await bot.event(messageEvent({ user: OWNER, channel: dm, text: "hello", ts: "1800000000.000100" }));
    const question = await eventually(
      () => bot.slack.messages(dm).find((m) => m.text.startsWith("Which project?")),
      20_000,
      "the question",
    );
    const buttons = buttonsOf(question.blocks);
    expect(buttons.map((b) => b.text.text)).toEqual(["demo", "zeta"]);
    expect(await conversations()).toEqual([]);

    const click = await bot.click(
      buttons[0]?.action_id ?? "",
      buttons[0]?.value ?? "",
      question.ts,
      OWNER,
      dm,
    );
    expect(click.status).toBe(200);
    expect((await bot.response(click.responseId)).text).toBe("Started in *demo*.");
    await eventually(async () => (await conversations()).length === 1 || null, 20_000, "the conversation");
    expect(await conversations()).toEqual([{ name: "demo", user_id: OWNER }]);
    const prompts = await bot.db
      .selectFrom("messages")
      .select("content")
      .where("role", "=", "user")
      .execute();
    expect(prompts.map((p) => p.content)).toEqual(["hello"]);

    // In a DM, the person's last project is the default: no question this time.
    await bot.event(
      messageEvent({ user: OWNER, channel: dm, text: "and now the tests", ts: "1800000000.000200" }),
    );
    await eventually(
      async () => (await conversations()).length === 2 || null,
      20_000,
      "the second conversation",
    );
    expect(bot.slack.messages(dm).filter((m) => m.text.startsWith("Which project?"))).toHaveLength(1);
  });

  it("someone who can see no project is told so, and nothing runs (control: a named project still works)", async () => {
    bot = await slackBot();
    const dm = bot.slack.dmChannel(OTHER);
    await bot.event(messageEvent({ user: OTHER, channel: dm, text: "hello", ts: "1800000000.000100" }));
    const answer = await eventually(() => bot.slack.messages(dm)[0], 20_000, "the answer");
    expect(answer.text).toMatch(/^Tu n’as accès à aucun projet/);
    expect(buttonsOf(answer.blocks)).toEqual([]);
    // A forged click on the owner's project is refused by the engine as "not found".
    const forged = JSON.stringify({
      channel: dm,
      threadTs: "1800000000.000100",
      origin: "dm",
      prompt: "x",
      project: "demo",
    });
    const click = await bot.click("ask.choose.0", forged, answer.ts, OTHER, dm);
    expect((await bot.response(click.responseId)).text).toMatch(/introuvable|not found/i);
    expect(await conversations()).toEqual([]);

    const adminDm = bot.slack.dmChannel(ADMIN);
    await bot.event(
      messageEvent({ user: ADMIN, channel: adminDm, text: "demo say hi", ts: "1800000000.000300" }),
    );
    await eventually(
      async () => (await conversations()).length === 1 || null,
      20_000,
      "the admin's conversation",
    );
  });

  it("a channel's default project (set by its owner, not by others) makes '@codexpi <prompt>' work there, and only there", async () => {
    bot = await slackBot();
    await secondProject(bot);
    const mention = (channel: string, text: string, ts: string) =>
      bot.event(appMentionEvent({ user: OWNER, channel, text: `<@${bot.slack.botUserId}> ${text}`, ts }));
    // Someone who cannot see the project: "not found", and no default is set.
    const refused = await bot.command("project set demo --default-for <#C7|dev>", OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    const set = await bot.command("project set demo --default-for <#C7|dev>", OWNER);
    expect((await bot.response(set.responseId)).text).toMatch(
      /^Le projet \*demo\* est désormais le projet par défaut de .*C7/,
    );

    await mention("C7", "fix the test", "1800000000.000100");
    await eventually(async () => (await conversations()).length === 1 || null, 20_000, "the conversation");
    const prompts = await bot.db
      .selectFrom("messages")
      .select("content")
      .where("role", "=", "user")
      .execute();
    expect(prompts.map((p) => p.content)).toEqual(["fix the test"]);

    // Control: another channel has no default, so the same mention asks which project.
    await mention("C8", "fix the test", "1800000000.000200");
    await eventually(
      () => bot.slack.ephemerals.find((e) => e.channel === "C8" && /Dans quel projet/.test(e.text)),
      20_000,
      "the question in C8",
    );
    expect(await conversations()).toHaveLength(1);

    // Cleared (not by someone who cannot see it): the same mention in C7 now asks which project.
    const notCleared = await bot.command("project set demo --default-for none", OTHER);
    expect((await bot.response(notCleared.responseId)).text).toMatch(/introuvable/i);
    const cleared = await bot.command("project set demo --default-for none", OWNER);
    expect((await bot.response(cleared.responseId)).text).toMatch(
      /^Le projet \*demo\* n’est plus le projet par défaut de .*C7.*\.$/,
    );
    const again = await bot.command("project set demo --default-for none", OWNER);
    expect((await bot.response(again.responseId)).text).toBe(
      "Le projet *demo* n’était le projet par défaut d’aucun canal.",
    );
    await mention("C7", "fix the test", "1800000000.000300");
    await eventually(
      () => bot.slack.ephemerals.find((e) => e.channel === "C7" && /Dans quel projet/.test(e.text)),
      20_000,
      "the question in C7 once its default is cleared",
    );
    expect(await conversations()).toHaveLength(1);
  });
});
