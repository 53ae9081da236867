import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { ADMIN, OWNER } from "../support/slackBot.js";
import { forgeBot } from "./forgeBot.js";

// Issue 33, item 6, from Slack: `/codex project set NAME --forge-channel #c --forge-triggers …`
// changes the forge front end's settings with `forge set`'s checks and rights (admins); a webhook
// secret typed in Slack is never kept.

describe("/codex project set --forge-channel|--forge-triggers", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-61: an admin sets the project's forge channel and triggers from Slack (said back); a non-admin, a refused value and a typed webhook secret change nothing and say why", async () => {
    env = await forgeBot();
    const e = env;
    const threads = new ForgeThreads(e.db);
    const reply = async (text: string, user: string) =>
      (await e.response((await e.command(text, user)).responseId)).text ?? "";

    // Not an admin: refused, nothing kept.
    const refused = await reply(
      "project set demo --forge-channel <#CFORGE1|dev> --forge-triggers comments,ci",
      OWNER,
    );
    expect(refused).toMatch(/admin/i);
    expect((await threads.settings(e.project.id)).channel_id).toBeNull();

    // A value `forge set` refuses is refused here too, naming the option.
    const bad = await reply("project set demo --forge-triggers comments,deploys", ADMIN);
    expect(bad).toContain("--forge-triggers");
    expect(bad).toContain("comments,deploys");
    expect((await threads.settings(e.project.id)).triggers).toBe("comments,issues");

    // A secret typed in Slack: not kept, said to be no longer secret, nothing else changed.
    const file = path.join(e.bot.engine.config.dataDir, "credentials", "forge-webhook-demo.secret");
    const before = fs.readFileSync(file, "utf8");
    const secret = await reply(
      "project set demo --forge-channel <#CFORGE1|dev> --forge-webhook-secret typed-in-slack-0001",
      ADMIN,
    );
    expect(secret).toContain("--forge-webhook-secret -");
    expect(secret).not.toContain("typed-in-slack-0001");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect((await threads.settings(e.project.id)).channel_id).toBeNull();

    // Positive control: the admin's change is kept and said back.
    const set = await reply(
      "project set demo --forge-channel <#CFORGE1|dev> --forge-triggers comments,ci",
      ADMIN,
    );
    expect(set).toContain("<#CFORGE1>");
    expect(set).toContain("comments,ci");
    expect(await threads.settings(e.project.id)).toMatchObject({
      channel_id: "CFORGE1",
      triggers: "comments,ci",
    });
    const none = await reply("project set demo --forge-channel none --forge-triggers none", ADMIN);
    expect(none).toContain("triggers -");
    expect(await threads.settings(e.project.id)).toMatchObject({ channel_id: null, triggers: "" });
  }, 60_000);
});
