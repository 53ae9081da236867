import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OWNER, slackBot } from "../support/slackBot.js";

// `/codex project set <name> --channel #x`: the bot joins a public channel, needs an invitation to
// a private one, and refuses with Slack's reason when it cannot join; through the real app against
// the fake Slack (which records every conversations.* call).
describe("a project's channel: the bot is in it", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const channelOfDemo = async () =>
    (
      await bot.db
        .selectFrom("projects")
        .select("channel_id")
        .where("name", "=", "demo")
        .executeTakeFirstOrThrow()
    ).channel_id;
  const set = async (text: string, user = ADMIN) => {
    const r = await bot.command(text, user);
    return (await bot.response(r.responseId)).text ?? "";
  };

  it("a public channel the bot is not in is joined, then set", async () => {
    bot = await slackBot();
    bot.slack.setChannel("CPUB1", { botIsMember: false });
    expect(await set("project set demo --channel <#CPUB1|dev>")).toBe("Projet *demo* mis à jour.");
    expect(bot.slack.callsTo("conversations.join").map((c) => c.args.channel)).toEqual(["CPUB1"]);
    expect(await channelOfDemo()).toBe("CPUB1");
  });

  it("a channel the bot is already in is set without joining", async () => {
    bot = await slackBot();
    bot.slack.setChannel("CPUB2", { botIsMember: true });
    expect(await set("project set demo --channel <#CPUB2|dev>")).toBe("Projet *demo* mis à jour.");
    expect(bot.slack.callsTo("conversations.info").map((c) => c.args.channel)).toEqual(["CPUB2"]);
    expect(bot.slack.callsTo("conversations.join")).toEqual([]);
    expect(await channelOfDemo()).toBe("CPUB2");
  });

  it("a private channel without the bot is refused with the way out (invite it); with the bot invited it is set (control)", async () => {
    bot = await slackBot();
    bot.slack.setChannel("GPRIV1", { isPrivate: true, botIsMember: false });
    const refused = await set("project set demo --channel <#GPRIV1|secret>");
    expect(refused).toMatch(/est privé : invite d’abord <@UBOT0001> dans ce canal .*Rien n’a été modifié\.$/);
    expect(refused).toContain("GPRIV1");
    expect(bot.slack.callsTo("conversations.join")).toEqual([]);
    expect(await channelOfDemo()).toBeNull();

    bot.slack.setChannel("GPRIV1", { botIsMember: true }); // someone ran /invite @codexpi
    expect(await set("project set demo --channel <#GPRIV1|secret>")).toBe("Projet *demo* mis à jour.");
    expect(await channelOfDemo()).toBe("GPRIV1");
  });

  it("a join Slack refuses is refused with Slack's reason and changes nothing", async () => {
    bot = await slackBot();
    bot.slack.setChannel("CARCH1", { botIsMember: false, joinError: "is_archived" });
    const refused = await set("project set demo --channel <#CARCH1|old>");
    expect(refused).toMatch(
      /^codexpi n’a pas pu rejoindre .*CARCH1.* \(Slack a répondu `is_archived`\)\. Rien n’a été modifié\.$/,
    );
    expect(await channelOfDemo()).toBeNull();
  });

  it("someone who may not change the project makes the bot join nothing (control: the admin can); English for an English-locale admin", async () => {
    bot = await slackBot();
    bot.slack.setChannel("CPUB3", { botIsMember: false });
    expect(await set("project set demo --channel <#CPUB3|dev>", OWNER)).toMatch(/admin/i);
    expect(bot.slack.callsTo("conversations.info")).toEqual([]);
    expect(bot.slack.callsTo("conversations.join")).toEqual([]);
    expect(await channelOfDemo()).toBeNull();
    bot.slack.setUser(ADMIN, { locale: "en-US" });
    bot.slack.setChannel("GPRIV2", { isPrivate: true, botIsMember: false });
    expect(await set("project set demo --channel <#GPRIV2|x>")).toMatch(
      /^.*GPRIV2.* is private: invite <@UBOT0001> there first \(`\/invite <@UBOT0001>`\), then set the channel again\. Nothing was changed\.$/,
    );
    expect(await set("project set demo --channel <#CPUB3|dev>")).toBe("Project *demo* updated.");
    expect(bot.slack.callsTo("conversations.join").map((c) => c.args.channel)).toEqual(["CPUB3"]);
  });
});
