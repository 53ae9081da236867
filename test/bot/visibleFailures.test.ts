import { afterEach, describe, expect, it } from "vitest";
import { eventually, OWNER, slackBot } from "../support/slackBot.js";

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

  it("S-FAIL-04: Stop shows the killed command as stopped, never done, and the root goes from stopping to cancelled without showing it running again", async () => {
    bot = await slackBot({ streaming: true, env: { CODEXPI_LOCALE: "en" } });
    bot.model.enqueue({ kind: "shell", command: ["sh", "-c", "sleep 60; echo never"] });
    await bot.command("ask demo a long one");
    const stream = await eventually(() => bot.slack.streams[0], 60_000, "a stream");
    const chunks = () => stream.calls.flatMap((c) => c.chunks);
    await eventually(
      () => chunks().some((c) => String(c.title ?? "").includes("sleep 60") && c.status === "in_progress"),
      60_000,
      "the command running in the stream",
    );
    const root = rootOf(bot);
    const conversationId = (await bot.db.selectFrom("conversations").select("id").executeTakeFirstOrThrow())
      .id;
    const edits = () =>
      bot.slack
        .callsTo("chat.update")
        .filter((c) => c.ok && c.args.ts === root?.ts)
        .map((c) => JSON.stringify(c.args.blocks ?? c.args.text));
    const before = edits().length;
    expect((await bot.click("conversation.stop", conversationId, root?.ts ?? "", OWNER)).status).toBe(200);
    await eventually(() => /Cancelled/.test(rootText(bot)), 60_000, "the root cancelled");
    await eventually(() => stream.calls.at(-1)?.method === "chat.stopStream", 20_000, "the stream stopped");
    // From the stop on, the root said stopping, then cancelled: never running again in between.
    const after = edits().slice(before);
    // (Stopping… shows when the stop's edit comes before the turn's end; a quick end goes straight to cancelled.)
    const stopping = after.findIndex((e) => /Stopping…|Cancelled/.test(e));
    expect(stopping).toBeGreaterThanOrEqual(0);
    expect(after.slice(stopping).some((e) => /Running/.test(e))).toBe(false);
    // The killed command's last state is an error marked stopped; positive control: it was shown running.
    const command = chunks().filter((c) => String(c.title ?? "").includes("sleep 60"));
    expect(command.map((c) => c.status)).toContain("in_progress");
    expect(command.map((c) => c.status)).not.toContain("complete");
    expect(command.at(-1)).toMatchObject({ status: "error", details: "stopped" });
  }, 150_000);

  it("S-QUIET-05: while a turn streams, its root is still edited: each new reconnecting attempt reaches it as well as the stream", async () => {
    bot = await slackBot({
      streaming: true,
      env: { CODEXPI_LOCALE: "en", CODEXPI_CONNECT_TIMEOUT: "30", CODEXPI_IDLE_TIMEOUT: "600" },
    });
    await bot.model.close();
    await bot.command("ask demo hello");
    const stream = await eventually(
      () => bot.slack.streams[0],
      60_000,
      "a stream (the retries are its activity)",
    );
    await eventually(
      () => stream.calls.flatMap((c) => c.chunks).some((c) => /attempt 2/.test(String(c.title ?? ""))),
      60_000,
      "the second attempt in the stream",
    );
    // The root follows the streamed turn (positive control of the stream: it got there too).
    await eventually(
      () => /reconnecting to the model: .*attempt [2-9]/.test(rootText(bot)),
      20_000,
      "the root",
    );
  }, 150_000);
});
