import { afterEach, describe, expect, it } from "vitest";
import { messageEvent } from "../support/slackRequests.js";
import { OWNER, eventually, slackBot } from "../support/slackBot.js";

const ASK = (title: string, question: string) =>
  `Je peux continuer.\nCODEXPI_DECISION {"title":"${title}","question":"${question}","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}],"allow_multiple":false,"allow_custom":false}`;

type Element = { type: string; action_id: string; value?: string };
type AnyBlock = { type: string; elements?: Element[]; accessory?: Element };
/** What can be clicked in a message: the elements of its actions blocks and the sections' accessories. */
const elementsOf = (blocks: unknown[] | undefined): Element[] =>
  ((blocks ?? []) as AnyBlock[]).flatMap((b) => [
    ...(b.type === "actions" ? (b.elements ?? []) : []),
    ...(b.accessory?.action_id ? [b.accessory] : []),
  ]);

// The decision's cancel edge through the real app, notifier, workers and Codex binary.
describe("a stopped conversation's decision in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const rootIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  it("stopping the conversation edits the open decision's card to say it was cancelled, without buttons; a late click is refused and changes nothing (control: a click before the stop answers)", async () => {
    bot = await slackBot();
    bot.model.enqueue(
      { kind: "text", text: ASK("Cible", "Quelle cible ?") },
      { kind: "text", text: ASK("Version", "Quelle version ?") },
      { kind: "hang" },
    );
    await bot.command("ask demo déploie la branche");
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root");
    // The card is the message whose blocks carry the decision's question (the answer before it quotes the marker as text).
    const cardOf = (question: string) =>
      bot.slack
        .thread("C1", root.ts)
        .find(
          (m) =>
            m.ts !== root.ts &&
            JSON.stringify(m.blocks ?? []).includes(question) &&
            JSON.stringify(m.blocks ?? []).includes("decision."),
        );

    // Positive control: before any stop, a click on the first card answers it.
    const first = await eventually(() => cardOf("Quelle cible ?"), 45_000, "first card");
    const firstDecision = await bot.db
      .selectFrom("decisions")
      .selectAll()
      .where("question", "=", "Quelle cible ?")
      .executeTakeFirstOrThrow();
    const staging = elementsOf(first.blocks).find((e) => e.value === `${firstDecision.id}|staging`)!;
    const answered = await bot.click(staging.action_id, staging.value!, first.ts, OWNER);
    expect((await bot.response(answered.responseId)).text).toMatch(/réponse envoyée/i);
    expect(
      (
        await bot.db
          .selectFrom("decisions")
          .select("status")
          .where("id", "=", firstDecision.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("ANSWERED");

    // The resumed agent asks a second question: its card has buttons.
    const second = await eventually(() => cardOf("Quelle version ?"), 45_000, "second card");
    expect(elementsOf(second.blocks).length).toBeGreaterThan(0);
    const decision = await bot.db
      .selectFrom("decisions")
      .selectAll()
      .where("question", "=", "Quelle version ?")
      .executeTakeFirstOrThrow();
    expect(decision.status).toBe("OPEN");
    const production = elementsOf(second.blocks).find((e) => e.value === `${decision.id}|production`)!;
    expect(production).toBeDefined();

    // Instead of answering, the person writes in the thread; while that turn runs, they press Stop.
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "attends, je vérifie d’abord",
        ts: "1800000000.000300",
        thread_ts: root.ts,
      }),
    );
    const conversation = await bot.db.selectFrom("conversations").selectAll().executeTakeFirstOrThrow();
    await eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .select("id")
          .where("codex_pid", "is not", null)
          .where("status", "=", "running")
          .executeTakeFirst()) ?? null,
      30_000,
      "the follow-up to run",
    );
    const stopButton = await eventually(
      () => elementsOf(rootIn("C1")[0]?.blocks).find((e) => e.action_id === "conversation.stop"),
      15_000,
      "the Stop button",
    );
    const updatesBefore = bot.slack.callsTo("chat.update").filter((c) => c.args.ts === second.ts).length;
    const stop = await bot.click(stopButton.action_id, stopButton.value!, root.ts, OWNER);
    expect(stop.status).toBe(200);
    await eventually(
      () =>
        bot.slack.thread("C1", root.ts).find((m) => /^Arrêté par .*décision ouverte annulée/.test(m.text)),
      20_000,
      "the stop's summary in the thread",
    );

    // The card is edited: it says the decision was cancelled and has no button left.
    const update = await eventually(
      () =>
        bot.slack
          .callsTo("chat.update")
          .filter((c) => c.args.ts === second.ts)
          .slice(updatesBefore)[0],
      20_000,
      "the card's update",
    );
    expect(elementsOf(update.args.blocks as unknown[])).toEqual([]);
    expect(JSON.stringify(update.args.blocks)).toContain("Décision annulée");
    const card = bot.slack.messages("C1").find((m) => m.ts === second.ts)!;
    expect(elementsOf(card.blocks)).toEqual([]);
    expect(
      (
        await bot.db
          .selectFrom("decisions")
          .select("status")
          .where("id", "=", decision.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("CANCELLED");

    // A late click on the old button is refused politely and changes nothing.
    await eventually(
      async () =>
        (await bot.db
          .selectFrom("prompt_queue")
          .select("status")
          .where("status", "in", ["queued", "running"])
          .executeTakeFirst()) === undefined,
      20_000,
      "the stop to settle",
    );
    const itemsBefore = await bot.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", conversation.id)
      .execute();
    const requestsBefore = bot.model.requests.length;
    const late = await bot.click(production.action_id, production.value!, second.ts, OWNER);
    expect(late.status).toBe(200);
    const refusal = await bot.response(late.responseId);
    expect(refusal.text).toMatch(/annulée/);
    expect(bot.slack.responses.find((r) => r.id === late.responseId)?.body).toMatchObject({
      response_type: "ephemeral",
    });
    const row = await bot.db
      .selectFrom("decisions")
      .selectAll()
      .where("id", "=", decision.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "CANCELLED", answer: null, response_queue_id: null });
    expect(
      await bot.db
        .selectFrom("prompt_queue")
        .select("id")
        .where("conversation_id", "=", conversation.id)
        .execute(),
    ).toHaveLength(itemsBefore.length);
    expect(bot.model.requests.length).toBe(requestsBefore);
  });

  it("while a decision waits the root offers Stop; pressing it cancels the decision: the card's update has no buttons left, the root loses Stop, and a late click changes nothing", async () => {
    bot = await slackBot();
    bot.model.enqueue({ kind: "text", text: ASK("Cible", "Quelle cible ?") });
    await bot.command("ask demo déploie la branche");
    const root = await eventually(() => rootIn("C1")[0], 30_000, "root");
    const card = await eventually(
      () =>
        bot.slack.thread("C1", root.ts).find(
          (m) =>
            // Not the root: its state line may quote the agent's text, and it offers Stop.
            m.ts !== root.ts &&
            JSON.stringify(m.blocks ?? []).includes("Quelle cible ?") &&
            elementsOf(m.blocks).some((e) => e.action_id?.startsWith("decision.")),
        ),
      45_000,
      "card",
    );
    const decision = await bot.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    const staging = elementsOf(card.blocks).find((e) => e.value === `${decision.id}|staging`)!;
    // The agent's turn is over (done), but the conversation waits on its person: Stop is offered.
    await eventually(
      async () =>
        (await bot.db.selectFrom("conversations").select("status").executeTakeFirstOrThrow()).status ===
        "completed",
      15_000,
      "turn over",
    );
    const stopButton = await eventually(
      () =>
        elementsOf(bot.slack.messages("C1").find((m) => m.ts === root.ts)?.blocks).find(
          (e) => e.action_id === "conversation.stop",
        ),
      15_000,
      "Stop on the root",
    );

    await bot.click(stopButton.action_id, stopButton.value!, root.ts, OWNER);
    await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => /^Arrêté par .*1 décision ouverte annulée\.$/.test(m.text)),
      20_000,
      "the stop's summary in the thread",
    );
    const update = await eventually(
      () =>
        // The cancellation's update (the card may have been edited before, e.g. its link refreshed).
        bot.slack
          .callsTo("chat.update")
          .find((c) => c.args.ts === card.ts && JSON.stringify(c.args.blocks).includes("Décision annulée")),
      20_000,
      "the card's update",
    );
    expect(elementsOf(update.args.blocks as unknown[])).toEqual([]);
    expect(JSON.stringify(update.args.blocks)).toContain("Décision annulée");
    await eventually(
      () => {
        const r = bot.slack.messages("C1").find((m) => m.ts === root.ts);
        return r && !elementsOf(r.blocks).some((e) => e.action_id === "conversation.stop");
      },
      20_000,
      "Stop gone from the root",
    );

    const late = await bot.click(staging.action_id, staging.value!, card.ts, OWNER);
    expect((await bot.response(late.responseId)).text).toMatch(/annulée/);
    expect(
      await bot.db
        .selectFrom("decisions")
        .selectAll()
        .where("id", "=", decision.id)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({ status: "CANCELLED", answer: null, response_queue_id: null });
    expect(
      await bot.db
        .selectFrom("prompt_queue")
        .select("id")
        .where("origin_kind", "=", "decision_answer")
        .execute(),
    ).toEqual([]);
    expect(bot.model.requests).toHaveLength(1);
  });
});
