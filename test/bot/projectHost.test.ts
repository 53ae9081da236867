import { afterEach, describe, expect, it } from "vitest";
import { registerHost } from "../../src/engine/dispatch/hosts.js";
import { ADMIN, OWNER, slackBot } from "../support/slackBot.js";

// `/codex project set <name> --host <host>|none` through the real app against the fake Slack:
// admins only, a host that never registered is refused, the placement is what the engine reads.
describe("placing a project on a worker host from Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const set = async (text: string, user = ADMIN) => {
    const r = await bot.command(text, user);
    return (await bot.response(r.responseId)).text ?? "";
  };
  const hostOfDemo = async () =>
    (await bot.db.selectFrom("projects").select("host").where("name", "=", "demo").executeTakeFirstOrThrow())
      .host;

  it("an admin places it on a registered host and back; an unknown host and a non-admin are refused", async () => {
    bot = await slackBot();
    const unknown = await set("project set demo --host buildbox");
    expect(unknown).toContain("buildbox");
    expect(unknown).toContain("codexpi host --name buildbox");
    expect(await hostOfDemo()).toBeNull();

    await registerHost(
      bot.db,
      bot.bot.engine.clock,
      "buildbox",
      "elsewhere:1:1:aa",
      30_000,
      "/var/lib/codexpi",
    );
    expect(await set("project set demo --host buildbox", OWNER)).not.toContain("désormais");
    expect(await hostOfDemo()).toBeNull();
    expect(await set("project set demo --host buildbox")).toBe(
      "Le projet *demo* tourne désormais sur l’hôte de travail `buildbox`.",
    );
    expect(await hostOfDemo()).toBe("buildbox");
    expect(await set("project set demo --host none")).toBe(
      "Le projet *demo* tourne désormais sur la machine du bot.",
    );
    expect(await hostOfDemo()).toBeNull();
  });
});
