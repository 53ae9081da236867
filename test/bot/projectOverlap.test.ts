import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, slackBot } from "../support/slackBot.js";

// `/codex project add` and `/codex project set --path` through the real app against the fake
// Slack: a directory overlapping another project's is refused with a reply naming that project.
describe("projects never overlap, from Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const say = async (text: string) => {
    const r = await bot.command(text, ADMIN);
    return (await bot.response(r.responseId)).text ?? "";
  };
  const names = async () =>
    (await bot.db.selectFrom("projects").select("name").orderBy("name").execute()).map((p) => p.name);

  it("an admin's add inside demo and a set --path onto demo are refused naming demo; a sibling sharing its prefix is accepted", async () => {
    bot = await slackBot();
    const demo = (
      await bot.db.selectFrom("projects").select("path").where("name", "=", "demo").executeTakeFirstOrThrow()
    ).path;
    const inside = path.join(demo, "services", "billing");
    const sibling = `${demo}-billing`;
    fs.mkdirSync(inside, { recursive: true });
    fs.mkdirSync(sibling);

    const refused = await say(`project add billing ${inside}`);
    expect(refused).toContain(`chevauche le projet demo (${fs.realpathSync(demo)})`);
    expect(await names()).toEqual(["demo"]);

    expect(await say(`project add billing ${sibling}`)).toContain("billing");
    expect(await names()).toEqual(["billing", "demo"]);

    expect(await say(`project set billing --path ${demo}`)).toContain("chevauche le projet demo");
    const billing = await bot.db
      .selectFrom("projects")
      .select("path")
      .where("name", "=", "billing")
      .executeTakeFirstOrThrow();
    expect(billing.path).toBe(sibling);
  });
});
