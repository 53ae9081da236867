import { afterEach, describe, expect, it } from "vitest";
import { messageEvent } from "../support/slackRequests.js";
import { OWNER, eventually, slackBot } from "../support/slackBot.js";

type Bot = Awaited<ReturnType<typeof slackBot>>;

const rootOf = (bot: Bot) => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts);
const rootText = (bot: Bot) => JSON.stringify(rootOf(bot)?.blocks ?? rootOf(bot)?.text ?? "");
const dms = (bot: Bot) => bot.slack.messages(bot.slack.dmChannel(OWNER));

// The real bot (Bolt, notifier, outbox, workers, the real Codex binary); Slack (streams allowed)
// and the model faked. What a person sees in the channel is what the fake Slack holds.
describe("quiet threads", () => {
  let bot: Bot;
  afterEach(async () => bot?.close());

  it("S-QUIET-01: a one-second /codex ask leaves the root and the answer in its thread, its acknowledgement deleted, no stream and no DM", async () => {
    bot = await slackBot({ streaming: true, env: { CODEXPI_LOCALE: "en" } });
    bot.model.enqueue({ kind: "text", text: "the answer" });
    const asked = await bot.command("ask demo a quick question");
    expect(asked.status).toBe(200);
    await eventually(() => /Done in \d+ s/.test(rootText(bot)), 60_000, "the final state");
    // Positive control: the acknowledgement was shown ("Working…"), then deleted through its response URL.
    const acks = bot.slack.responses.filter((r) => r.id === asked.responseId);
    expect(acks.some((r) => (r.body as { text?: string }).text === "Working…")).toBe(true);
    await eventually(() => bot.slack.shownResponses().length === 0, 10_000, "the ack deleted");
    expect(acks.some((r) => (r.body as { delete_original?: boolean }).delete_original === true)).toBe(true);

    const root = rootOf(bot);
    const visible = bot.slack.messages("C1");
    expect(visible).toHaveLength(2);
    expect(visible.filter((m) => m.text === "the answer")).toHaveLength(1);
    expect(visible.find((m) => m.text === "the answer")?.thread_ts).toBe(root?.ts);
    // Nothing to stream: no activity, and the answer is posted once, on its own.
    expect(bot.slack.callsTo("chat.startStream")).toHaveLength(0);
    expect(dms(bot)).toHaveLength(0);
  }, 120_000);

  it("S-QUIET-02: a turn that ran longer than CODEXPI_DONE_DM_SECONDS gets its done DM (the positive control of S-QUIET-01)", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en", CODEXPI_DONE_DM_SECONDS: "1" } });
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo slept"] },
      { kind: "text", text: "done after a while" },
    );
    await bot.command("ask demo something slower");
    await eventually(() => dms(bot).find((m) => m.text.includes("is done")), 60_000, "the done DM");
  }, 120_000);

  it("S-QUIET-03: a streamed turn's answer is not streamed too: the stream shows its commands and interim text, the answer is posted once", async () => {
    bot = await slackBot({ streaming: true, env: { CODEXPI_LOCALE: "en" } });
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo step-1"], say: "Looking first." },
      { kind: "text", text: "final words" },
    );
    await bot.command("ask demo with a command");
    await eventually(() => /Done in \d+ s/.test(rootText(bot)), 60_000, "the final state");
    const stream = bot.slack.streams[0];
    const chunks = stream?.calls.flatMap((c) => c.chunks) ?? [];
    // Positive control: the stream does show text (the interim one, followed by the command).
    expect(chunks).toContainEqual({ type: "markdown_text", text: "Looking first." });
    expect(JSON.stringify(chunks)).not.toContain("final words");
    // No "starting" task: the stream opened at the command.
    expect(JSON.stringify(chunks)).not.toContain("starting");
    expect(bot.slack.messages("C1").filter((m) => m.text === "final words")).toHaveLength(1);
  }, 120_000);

  it("S-QUIET-04: after a follow-up, the root sums up the whole conversation: every turn's work time and the tokens", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" } });
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo one"] },
      { kind: "text", text: "first answer" },
    );
    await bot.command("ask demo first");
    await eventually(() => /Done in \d+ s/.test(rootText(bot)), 60_000, "the first turn done");
    const root = rootOf(bot);
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo two"] },
      { kind: "text", text: "second answer" },
    );
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "and then?",
        ts: "1800000000.000100",
        thread_ts: root?.ts,
      }),
    );
    await eventually(
      () => bot.slack.messages("C1").find((m) => m.text === "second answer"),
      60_000,
      "the second answer",
    );
    const summary = await eventually(
      () => /Done in (\d+) s · ([\d,]+) tokens/.exec(rootText(bot)),
      20_000,
      "the summary after the follow-up",
    );
    // Each turn slept 2 s: only their sum reaches 4 s (the last turn alone is about 2 s).
    expect(Number(summary[1])).toBeGreaterThanOrEqual(4);
    const items = await bot.db.selectFrom("prompt_queue").select(["started_at", "finished_at"]).execute();
    const last = Math.max(...items.map((i) => Number(i.finished_at) - Number(i.started_at)));
    expect(Number(summary[1]) * 1000).toBeGreaterThan(last);
  }, 150_000);
});
