import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

// Each person reads codexpi in their own Slack locale (users.info with include_locale), with
// CODEXPI_LOCALE for a person whose locale is unknown; through the real app, notifier, workers and
// Codex binary (Slack and the model faked on 127.0.0.1).
describe("each person's language", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const unknown = (res: { json: unknown }) => (res.json as { text: string }).text;
  const blockText = (blocks: unknown[] | undefined) => JSON.stringify(blocks ?? []);

  it("S-FH-07: a mistyped /codex sub-command is answered with the one it most likely meant (positive control: none for a word far from all)", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" } });
    expect(unknown(await bot.command("aks demo fix the tests"))).toBe(
      "Unknown command: `aks`. Did you mean `/codex ask`? Type `/codex help` for the list.",
    );
    expect(unknown(await bot.command("nonsense"))).toBe(
      "Unknown command: `nonsense`. Type `/codex help` for the list.",
    );
    // Nothing was asked of anyone: a typo starts no conversation.
    expect(await bot.db.selectFrom("conversations").select("id").execute()).toEqual([]);
  });

  it("an English-locale user and a French-locale user in the same workspace each get their language; a user without a locale gets CODEXPI_LOCALE", async () => {
    bot = await slackBot();
    bot.slack.setUser(ADMIN, { locale: "en-US" });
    bot.slack.setUser(OWNER, { locale: "fr-FR" });
    expect(unknown(await bot.command("nonsense", ADMIN))).toBe(
      "Unknown command: `nonsense`. Type `/codex help` for the list.",
    );
    expect(unknown(await bot.command("nonsense", OWNER))).toBe(
      "Commande inconnue : `nonsense`. Tape `/codex help` pour la liste.",
    );
    // Positive control of the fallback: no locale in Slack, CODEXPI_LOCALE (French, as slackBot sets it).
    expect(unknown(await bot.command("nonsense", OTHER))).toMatch(/^Commande inconnue/);
    const lookups = bot.slack.calls.filter((c) => c.method === "users.info");
    expect(lookups.every((c) => String(c.args.include_locale) === "true")).toBe(true);
    // Cached: one look-up per person, however many requests.
    await bot.command("nonsense", ADMIN);
    expect(bot.slack.calls.filter((c) => c.method === "users.info" && c.args.user === ADMIN)).toHaveLength(1);
  });

  it("CODEXPI_LOCALE answers for a person whose Slack locale is neither French nor English", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" } });
    bot.slack.setUser(ADMIN, { locale: "de-DE" });
    bot.slack.setUser(OWNER, { locale: "fr-FR" });
    expect(unknown(await bot.command("nonsense", ADMIN))).toMatch(/^Unknown command/);
    expect(unknown(await bot.command("nonsense", OWNER))).toMatch(/^Commande inconnue/);
  });

  it("a conversation's thread and DMs are in the language of its person, whoever shares the channel", async () => {
    // A done DM for a turn of any length (by default only after a minute: S-QUIET-02).
    bot = await slackBot({ env: { CODEXPI_DONE_DM_SECONDS: "0" } });
    bot.slack.setUser(OWNER, { locale: "en-GB" });
    bot.slack.setUser(ADMIN, { locale: "fr-FR" });
    const res = await bot.command("ask demo say hello", OWNER);
    expect(res.status).toBe(200);
    const root = await eventually(
      () =>
        bot.slack
          .messages("C1")
          .find((m) => !m.thread_ts && blockText(m.blocks).includes("Reply in this thread")),
      30_000,
      "the English state message",
    );
    expect(blockText(root.blocks)).not.toContain("Réponds dans ce fil");
    expect(root.text).not.toMatch(/ : /);
    const done = await eventually(
      () => bot.slack.messages(bot.slack.dmChannel(OWNER)).find((m) => m.text.includes("is done")),
      60_000,
      "the English done DM",
    );
    expect(done.text).toMatch(/^Your request in \*demo\* is done/);

    // Positive control: the French person's own conversation in the same channel is in French.
    await bot.command("ask demo dis bonjour", ADMIN);
    await eventually(
      () =>
        bot.slack
          .messages("C1")
          .find((m) => !m.thread_ts && blockText(m.blocks).includes("Réponds dans ce fil")),
      30_000,
      "the French state message",
    );
  });

  it("App Home is published in the language of the person opening it", async () => {
    bot = await slackBot();
    bot.slack.setUser(OWNER, { locale: "en-US" });
    bot.slack.setUser(ADMIN, { locale: "fr-CA" });
    const home = async (user: string) => {
      await bot.event({ type: "app_home_opened", user, channel: "DHOME", tab: "home" });
      return JSON.stringify(
        await eventually(
          () => bot.slack.views.find((v) => v.method === "views.publish" && v.user_id === user),
          15_000,
          `App Home of ${user}`,
        ),
      );
    };
    const en = await home(OWNER);
    expect(en).toContain("Pending decisions (0)");
    expect(en).not.toContain("Décisions en attente");
    expect(await home(ADMIN)).toContain("Décisions en attente (0)");
  });
});
