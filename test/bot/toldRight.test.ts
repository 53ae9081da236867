import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OWNER, eventually, slackBot } from "../support/slackBot.js";

const ASK =
  'Two targets are possible.\nCODEXPI_DECISION {"title":"Target","question":"Which target?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}]}';

type Bot = Awaited<ReturnType<typeof slackBot>>;
type Element = { type: string; action_id: string; value?: string };
const buttonsOf = (blocks: unknown[] | undefined): Element[] =>
  ((blocks ?? []) as Array<{ type: string; elements?: Element[] }>).flatMap((b) =>
    b.type === "actions" ? (b.elements ?? []) : [],
  );
const rootOf = (bot: Bot) => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts);

// Decisions and failures told as one story (issue 32, item 5): the real bot, workers and Codex
// binary, Slack and the model faked.
describe("decisions and failures told right", () => {
  let bot: Bot;
  afterEach(async () => bot?.close());

  it("S-TOLD-01: an admin's answer to someone else's decision reads right for both: the admin is told it was sent, the person who clicks later is told who answered what, and the card says it", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" } });
    bot.model.enqueue({ kind: "text", text: ASK }, { kind: "text", text: "Deployed to staging" });
    await bot.command("ask demo deploy the branch");
    const root = await eventually(() => rootOf(bot), 30_000, "root");
    const card = await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => m.ts !== root.ts && JSON.stringify(m.blocks ?? []).includes("Which target?")),
      45_000,
      "card",
    );
    const decision = await bot.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    expect(decision.user_id).toBe(OWNER);
    const staging = buttonsOf(card.blocks).find((e) => e.value === `${decision.id}|staging`)!;
    // The admin answers the owner's decision: told it was sent.
    const byAdmin = await bot.click(staging.action_id, staging.value!, card.ts, ADMIN);
    expect((await bot.response(byAdmin.responseId)).text).toMatch(/^✅ Answer sent/);
    // The owner clicks the card they still see: told who answered and what, not "you already answered".
    const production = buttonsOf(card.blocks).find((e) => e.value === `${decision.id}|production`)!;
    const byOwner = await bot.click(production.action_id, production.value!, card.ts, OWNER);
    const late = (await bot.response(byOwner.responseId)).text ?? "";
    expect(late).toBe(`Already answered by <@${ADMIN}>: Staging`);
    // The card, edited, says who answered what; no button is left.
    const edited = await eventually(
      () => {
        const m = bot.slack.messages("C1").find((x) => x.ts === card.ts);
        return buttonsOf(m?.blocks).length === 0 ? m : undefined;
      },
      30_000,
      "the card closed",
    );
    expect(JSON.stringify(edited.blocks)).toContain(`<@${ADMIN}> answered: *Staging*`);
    const row = await bot.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    expect(row.answered_by).toBe(ADMIN);
    expect(JSON.parse(row.answer ?? "{}")).toMatchObject({ option_ids: ["staging"] });
  }, 150_000);
});
