import { afterEach, describe, expect, it } from "vitest";
import { eventually, slackBot } from "../support/slackBot.js";

type Bot = Awaited<ReturnType<typeof slackBot>>;

const rootOf = (bot: Bot) => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts);
const rootText = (bot: Bot) => JSON.stringify(rootOf(bot)?.blocks ?? rootOf(bot)?.text ?? "");

// The real bot, workers and Codex binary; Slack faked, and the model's port closed.
describe("failures people can see", () => {
  let bot: Bot;
  afterEach(async () => bot?.close());

  it("S-FAIL-02: a model on a closed port fails the turn within CODEXPI_CONNECT_TIMEOUT with Codex's error, and the root says it reconnects meanwhile", async () => {
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en", CODEXPI_CONNECT_TIMEOUT: "8", CODEXPI_IDLE_TIMEOUT: "600" },
    });
    await bot.model.close(); // nothing listens on the model's port any more
    const started = Date.now();
    await bot.command("ask demo hello");
    const retrying = await eventually(
      () => /reconnecting to the model: .*attempt \d+/.exec(rootText(bot)),
      60_000,
      "the root saying it reconnects",
    );
    expect(retrying[0]).toContain("Connection failed");
    const notice = await eventually(
      () => bot.slack.messages("C1").find((m) => m.text.startsWith("The agent failed")),
      90_000,
      "the failure notice",
    );
    // Far within the idle limit (600 s): the connection limit ended it, with Codex's own error.
    expect(Date.now() - started).toBeLessThan(80_000);
    expect(notice.text).toContain("could not reach the model for 8 s");
    expect(notice.text).toContain("Connection failed");
    expect(notice.text).toContain("Try next");
    const item = await bot.db
      .selectFrom("prompt_queue")
      .select(["status", "error"])
      .executeTakeFirstOrThrow();
    expect(item.status).toBe("failed");
    expect(item.error).toContain("worker.model_unreachable");
  }, 150_000);
});
