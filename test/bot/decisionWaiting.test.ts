import { afterEach, describe, expect, it } from "vitest";
import { OWNER, eventually, slackBot } from "../support/slackBot.js";

const ASK =
  'Deux cibles sont possibles.\nCODEXPI_DECISION {"title":"Cible","question":"Quelle cible ?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}]}';

type Element = { type: string; action_id: string; value?: string };
type AnyBlock = { type: string; elements?: Element[]; accessory?: Element };
const elementsOf = (blocks: unknown[] | undefined): Element[] =>
  ((blocks ?? []) as AnyBlock[]).flatMap((b) => [
    ...(b.type === "actions" ? (b.elements ?? []) : []),
    ...(b.accessory?.action_id ? [b.accessory] : []),
  ]);

// A decision through the real app, notifier, workers and Codex binary, as a person reads it.
describe("a decision reads as a question", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  it("the answer is posted without the marker, the status waits, the DM says a decision awaits (not done); once answered and finished: done, and the done DM (control)", async () => {
    // Every turn's done DM (by default only turns of a minute or more get one: S-QUIET-02).
    bot = await slackBot({ env: { CODEXPI_DONE_DM_SECONDS: "0", CODEXPI_DECISION_DM_SECONDS: "1" } });
    bot.model.enqueue({ kind: "text", text: ASK }, { kind: "text", text: "Déployé sur staging 7731" });
    await bot.command("ask demo déploie la branche");
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      30_000,
      "root",
    );
    // Replies only: the root's state line may quote the agent's text while the answer is on its way.
    const thread = () => bot.slack.thread("C1", root.ts).filter((m) => m.ts !== root.ts);
    const dms = () => bot.slack.messages(bot.slack.dmChannel(OWNER));
    const card = await eventually(
      () => thread().find((m) => JSON.stringify(m.blocks ?? []).includes("Quelle cible ?")),
      45_000,
      "card",
    );
    const answer = thread().find((m) =>
      JSON.stringify(m.blocks ?? []).includes("Deux cibles sont possibles."),
    );
    expect(answer).toBeDefined();
    for (const m of bot.slack.thread("C1", root.ts))
      expect(JSON.stringify([m.text, m.blocks])).not.toContain("CODEXPI_DECISION");
    const status = await eventually(
      () => {
        const r = bot.slack.messages("C1").find((m) => m.ts === root.ts);
        return JSON.stringify(r?.blocks).includes("En attente de ta réponse") ? r : undefined;
      },
      30_000,
      "waiting status",
    );
    expect(JSON.stringify(status.blocks)).toContain("⏸");
    // The status links to the question: the card's permalink (chat.getPermalink on the posted card).
    const questionLink = `https://fake.slack.test/archives/C1/p${card.ts.replace(".", "")}`;
    const linked = await eventually(
      () => {
        const r = bot.slack.messages("C1").find((m) => m.ts === root.ts);
        return JSON.stringify(r?.blocks).includes(`<${questionLink}|voir la question>`) ? r : undefined;
      },
      30_000,
      "the status linking to the question",
    );
    expect(JSON.stringify(linked.blocks)).toContain("En attente de ta réponse");
    expect(JSON.stringify(status.blocks)).not.toContain("✅");
    await eventually(
      () => dms().find((m) => /Une décision t’attend/.test(m.text ?? "")),
      30_000,
      "decision DM",
    );
    expect(dms().some((m) => /est terminée/.test(m.text ?? ""))).toBe(false);

    // The person answers; the agent finishes: now it is done, and the done DM comes (the control).
    const decision = await bot.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    const staging = elementsOf(card.blocks).find((e) => e.value === `${decision.id}|staging`)!;
    await bot.click(staging.action_id, staging.value!, card.ts, OWNER);
    await eventually(
      () => thread().find((m) => JSON.stringify(m.blocks ?? []).includes("Déployé sur staging 7731")),
      45_000,
      "final answer",
    );
    await eventually(() => dms().find((m) => /est terminée/.test(m.text ?? "")), 30_000, "done DM");
    await eventually(
      () => JSON.stringify(bot.slack.messages("C1").find((m) => m.ts === root.ts)?.blocks).includes("✅"),
      30_000,
      "done status",
    );
  });
});
