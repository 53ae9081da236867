import { afterEach, describe, expect, it } from "vitest";
import { inputText } from "../support/fakeModel.js";
import { messageEvent } from "../support/slackRequests.js";
import { OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";
import { settled } from "../support/settled.js";

// Steering through the real app, notifier, worker processes (app-server runner) and Codex binary,
// with Slack and the model faked on 127.0.0.1.
describe("a reply that steers the running turn", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const steerableTurn = () =>
    eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .select("id")
          .where("status", "=", "running")
          .where("steer_turn_id", "is not", null)
          .executeTakeFirst()) ?? null,
      30_000,
      "a steerable turn",
    );

  async function replyWhileRunning(text: string, user = OWNER) {
    bot.model.enqueue({ kind: "shell", command: ["sleep", "3"] }, { kind: "text", text: "fini" });
    await bot.command("ask demo tâche longue");
    await steerableTurn();
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      15_000,
      "root",
    );
    await bot.event(messageEvent({ user, channel: "C1", text, ts: "1800000000.000100", thread_ts: root.ts }));
    return root;
  }

  it("the owner turns steering on; a reply in the thread goes to the running agent, which the thread says instead of a queue position", async () => {
    bot = await slackBot({ env: { CODEXPI_RUNNER: "app-server" } });
    const refused = await bot.command("project set demo --steer on", OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    const set = await bot.command("project set demo --steer on", OWNER);
    expect((await bot.response(set.responseId)).text).toContain("transmise au tour en cours");

    const root = await replyWhileRunning("STEER-NOTE-4410 et vérifie aussi les tests");
    const ack = await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Relance transmise")),
      20_000,
      "the steer's acknowledgement",
    );
    expect(ack.text).toBe("Relance transmise à l’agent en cours : il en tient compte dans ce tour.");
    await eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .select("status")
          .where("status", "=", "done")
          .executeTakeFirst()) ?? null,
      30_000,
      "the turn to end",
    );
    await settled(bot);
    expect(bot.model.requests.slice(1).map(inputText).join("\n")).toContain("STEER-NOTE-4410");
    expect(bot.model.requests).toHaveLength(2);
    const thread = bot.slack.thread("C1", root.ts);
    expect(thread.filter((m) => m.text.includes("Relance"))).toHaveLength(1);
    expect(
      (await bot.db.selectFrom("prompt_queue").select("status").orderBy("seq").execute()).map(
        (r) => r.status,
      ),
    ).toEqual(["done", "steered"]);
  });

  it("with steering off, the same reply is queued with its position (control)", async () => {
    bot = await slackBot({ env: { CODEXPI_RUNNER: "app-server" } });
    bot.model.enqueue({ kind: "shell", command: ["sleep", "3"] }, { kind: "text", text: "fini" });
    await bot.command("ask demo tâche longue");
    await eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .select("id")
          .where("codex_pid", "is not", null)
          .executeTakeFirst()) ?? null,
      30_000,
      "codex to start",
    );
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      15_000,
      "root",
    );
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "STEER-NOTE-4410",
        ts: "1800000000.000100",
        thread_ts: root.ts,
      }),
    );
    const ack = await eventually(
      () => bot.slack.thread("C1", root.ts).find((m) => m.text.includes("Relance")),
      20_000,
      "the follow-up's acknowledgement",
    );
    expect(ack.text).toBe("Relance en file d’attente (position 1).");
  });
});
