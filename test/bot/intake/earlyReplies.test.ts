import { afterEach, describe, expect, it } from "vitest";
import { inputText } from "../../support/fakeModel.js";
import { messageEvent } from "../../support/slackRequests.js";
import { OWNER, eventually, slackBot } from "../../support/slackBot.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Finding 3 of issue 8: a thread reply that arrived before the bot had recorded its root's ts was
// dropped without a word. It now waits in the intake until the root's ts is recorded.
describe("replies that arrive before their thread is known", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const roots = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  it("a reply to a root whose post answer was lost waits, and is answered once the root's ts is recorded", async () => {
    bot = await slackBot({ intake: { retryEveryMs: 300 } });
    bot.model.enqueue({ kind: "text", text: "première réponse 7731" }, { kind: "text", text: "suite 7732" });
    // The root is stored by Slack, its answer lost: the bot does not know its ts yet.
    bot.slack.failNext("chat.postMessage", { status: 200, dropResponse: true });
    const res = await bot.command("ask demo hello");
    expect(res.status).toBe(200);
    const root = await eventually(() => roots("C1")[0], 20_000, "root stored by Slack");
    const reply = await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "et la suite ?",
        ts: "1800000000.000200",
        thread_ts: root.ts,
        parent_user_id: bot.slack.botUserId,
      }),
    );
    expect(reply.status).toBe(200);
    await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("suite 7732")),
      60_000,
      "the early reply answered in the thread",
    );
    // Positive control: nothing lost, nothing twice: one root, two turns, the reply's prompt sent once.
    await pause(1_000);
    expect(roots("C1")).toHaveLength(1);
    const items = await bot.db.selectFrom("prompt_queue").select(["content", "status"]).execute();
    expect(items.map((i) => i.status)).toEqual(["done", "done"]);
    expect(items.filter((i) => i.content.includes("et la suite ?"))).toHaveLength(1);
    expect(bot.model.requests).toHaveLength(2);
    expect(inputText(bot.model.requests[1]!)).toContain("et la suite ?");
    expect(bot.slack.ephemerals).toHaveLength(0);
    // The reply looked its root up in Slack (its metadata carries the post's key).
    expect(
      bot.slack.callsTo("conversations.replies").some((c) => c.args.ts === root.ts && c.ok === true),
    ).toBe(true);
  });

  it("a reply that can never be matched is answered with a message after the bound; replies in people's threads stay ignored", async () => {
    bot = await slackBot({ intake: { retryEveryMs: 200, waitBoundMs: 1_500 } });
    // Control: a reply in a thread a person started is none of the bot's business.
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "entre nous",
        ts: "1800000001.000200",
        thread_ts: "1800000001.000100",
        parent_user_id: "UPERSON",
      }),
    );
    const res = await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "réponse orpheline",
        ts: "1800000002.000200",
        thread_ts: "1800000002.000100",
        parent_user_id: bot.slack.botUserId,
      }),
    );
    expect(res.status).toBe(200);
    await pause(700);
    expect(bot.slack.ephemerals).toHaveLength(0); // still waiting within the bound
    const told = await eventually(() => bot.slack.ephemerals[0], 10_000, "the person told");
    expect(told.text).toContain("n’a pu être rattachée");
    expect(told.user).toBe(OWNER);
    expect(told.thread_ts).toBe("1800000002.000100");
    await pause(1_000);
    expect(bot.slack.ephemerals).toHaveLength(1); // told once, the other reply never
    expect(await bot.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(0);
  });
});
