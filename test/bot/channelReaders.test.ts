import { afterEach, describe, expect, it } from "vitest";
import { messageEvent } from "../support/slackRequests.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

const MEMBER = "UMEMBER";

// A project its owner made visible to its channel, through the real app, workers and Codex binary
// against the fake Slack (conversations.members says who belongs to the channel). Tried as an
// attacker: a member who is not allowed reads but cannot prompt, follow up or stop; someone
// outside the channel sees nothing.
describe("a project visible to its channel, in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const reply = async (text: string, user: string, channel = "C1") => {
    const r = await bot.command(text, user, channel);
    return (await bot.response(r.responseId)).text ?? "";
  };
  const statusOf = async (user: string) => {
    const r = await bot.command("status", user, "C1");
    return JSON.stringify(await bot.response(r.responseId));
  };
  const items = () => bot.db.selectFrom("prompt_queue").select(["status", "conversation_id"]).execute();

  it("members read and follow; prompting, follow-ups and Stop stay with the owner and the people allowed", async () => {
    bot = await slackBot();
    bot.slack.setChannel("CTEAM", { members: [OWNER, MEMBER] });
    expect(await reply("project set demo --channel <#CTEAM|team>", ADMIN)).toBe("Projet *demo* mis à jour.");
    // Opening it is the owner's choice (not a member's).
    expect(await reply("project set demo --visible channel", MEMBER)).toMatch(/introuvable/);
    expect(await reply("project set demo --visible channel", OWNER)).toMatch(
      /^Le projet \*demo\* est désormais visible des membres de .*CTEAM.* : ils peuvent lire et suivre/,
    );

    bot.model.enqueue({ kind: "hang" });
    await bot.command("ask demo tâche longue 5521", OWNER, "CTEAM");
    await eventually(
      async () => (await items()).find((i) => i.status === "running"),
      30_000,
      "the agent running",
    );
    const root = await eventually(
      () => bot.slack.messages("CTEAM").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      15_000,
      "the root",
    );

    // The member follows it in /codex status (written from another channel: Slack says they belong).
    expect(await statusOf(MEMBER)).toContain("tâche longue 5521");
    expect(bot.slack.callsTo("conversations.members").map((c) => c.args.channel)).toContain("CTEAM");
    // Someone outside the channel does not (control of the positive above).
    expect(await statusOf(OTHER)).not.toContain("tâche longue 5521");
    // The member sees the project in /codex projects, marked as open to its channel.
    const projects = await bot.command("projects", MEMBER, "C1");
    expect(JSON.stringify(await bot.response(projects.responseId))).toContain("visible des membres du canal");
    const othersProjects = await bot.command("projects", OTHER, "C1");
    expect(JSON.stringify(await bot.response(othersProjects.responseId))).not.toContain("*demo*");

    // The member cannot prompt the project…
    // (S-SEE-03: told who may and how to be allowed.)
    expect(await reply("ask demo supprime tout", MEMBER, "CTEAM")).toBe(
      `Seuls <@${OWNER}> (son propriétaire), les personnes qu’il autorise et les admins peuvent lancer l’agent de *demo* ; tu peux suivre ses conversations. Pour y avoir droit, demande à <@${OWNER}> ou à un admin : \`/codex project allow demo @toi\`.`,
    );
    // …nor stop its conversation…
    const conversationId = (await items())[0]!.conversation_id;
    const stop = await bot.click("conversation.stop", conversationId, root.ts, MEMBER, "CTEAM");
    expect((await bot.response(stop.responseId)).text).toMatch(
      /^Seules les personnes autorisées à écrire dans \*demo\* \(<@\w+> en est propriétaire\) et les admins/,
    );
    // …nor follow it up in its thread.
    await bot.event(
      messageEvent({
        user: MEMBER,
        channel: "CTEAM",
        text: "et efface la base",
        ts: "1800000000.000100",
        thread_ts: root.ts,
      }),
    );
    await eventually(
      () =>
        bot.slack.ephemerals.find(
          (e) => e.user === MEMBER && /^Seules les personnes autorisées à écrire dans \*demo\*/.test(e.text),
        ),
      15_000,
      "the refusal of the member's follow-up",
    );
    expect((await items()).map((i) => i.status)).toEqual(["running"]);
    // Someone outside the channel gets "not found" for the project.
    expect(await reply("ask demo bonjour", OTHER)).toMatch(/introuvable/);

    // The owner allows the member: now they may prompt it (control: the refusal above was the rule).
    expect(await reply(`project allow demo <@${MEMBER}>`, OWNER)).toBe(
      `<@${MEMBER}> peut désormais confier du travail au projet *demo*.`,
    );
    await bot.command("ask demo une tâche à moi", MEMBER, "CTEAM");
    await eventually(
      async () => ((await items()).length === 2 ? true : null),
      15_000,
      "the member's conversation",
    );
    expect(await reply(`project disallow demo <@${MEMBER}>`, OWNER)).toBe(
      `<@${MEMBER}> ne peut plus confier de travail au projet *demo*.`,
    );
    expect(await reply("ask demo encore", MEMBER, "CTEAM")).toMatch(/Pour y avoir droit/);
  });

  it("a channel Slack will not list (the bot is not in it) opens nothing: closed, not open (control: a channel it lists)", async () => {
    bot = await slackBot();
    const listed = async () => {
      const r = await bot.command("projects", MEMBER, "C1");
      return JSON.stringify(await bot.response(r.responseId)).includes("*demo*");
    };
    const openTo = (channel: string) =>
      bot.db
        .updateTable("projects")
        .set({ channel_id: channel, visibility: "channel" })
        .where("name", "=", "demo")
        .execute();
    bot.slack.setChannel("GSECRET", { isPrivate: true, botIsMember: false, members: [MEMBER] });
    await openTo("GSECRET");
    expect(await listed()).toBe(false);
    const call = bot.slack.callsTo("conversations.members").find((c) => c.args.channel === "GSECRET");
    expect(call?.error).toBe("channel_not_found");

    bot.slack.setChannel("GOPEN", { isPrivate: true, botIsMember: true, members: [MEMBER] });
    await openTo("GOPEN");
    expect(await listed()).toBe(true);
  });
});
