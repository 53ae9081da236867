import { afterEach, describe, expect, it } from "vitest";
import { OTHER, OWNER, slackBot } from "../support/slackBot.js";

// Issue 32: `/codex ask` with a mistyped project name suggests the one the person most likely
// meant, among the projects they may see (the real Bolt app; the project demo is OWNER's, private).
describe("a mistyped project name in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  it("S-FH-09: its owner is asked whether they meant demo; someone demo is hidden from is told only that demi is not found", async () => {
    bot = await slackBot();
    const owner = await bot.command("ask demi hello", OWNER);
    const told = (await bot.response(owner.responseId)).text;
    expect(told).toMatch(/projet introuvable : demi \(voulais-tu dire demo \?\)\. `\/codex projects`/i);
    const other = await bot.command("ask demi hello", OTHER);
    const hidden = (await bot.response(other.responseId)).text;
    expect(hidden).toMatch(/projet introuvable : demi\. /i);
    expect(hidden).not.toContain("demo");
    expect(await bot.db.selectFrom("conversations").select("id").execute()).toHaveLength(0);
  });
});
