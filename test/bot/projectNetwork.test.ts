import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OTHER, OWNER, slackBot } from "../support/slackBot.js";

// Issue 31, item 3, from Slack (the real app against the fake Slack): `/codex project set NAME
// --network …` and `/codex project allow-host|deny-host NAME …` by the owner or an admin, private
// entries for admins only, each answered in the person's language; `/codex projects` shows the
// network to admins and the owner.
describe("a project's network from Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const say = async (text: string, user = ADMIN) => {
    const r = await bot.command(text, user);
    const response = await bot.response(r.responseId);
    return [response.text ?? "", JSON.stringify(response.blocks ?? [])].join("\n");
  };
  const stored = async () =>
    bot.db
      .selectFrom("projects")
      .select(["network_mode", "network_hosts"])
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();

  it("the owner sets the mode and lists public hosts in English; a private one is an admin's, said so; French for the admin", async () => {
    bot = await slackBot();
    bot.slack.setUser(OWNER, { locale: "en-US" });
    expect(await say("project set demo --network allowlist", OWNER)).toContain(
      "Project *demo*: its agents reach only the hosts listed, and none is yet (no network): `/codex project allow-host demo npm` adds some.",
    );
    expect(await say("project allow-host demo npm example.com:8080", OWNER)).toContain(
      "Project *demo*: added `registry.npmjs.org`, `registry.yarnpkg.com`, `example.com:8080`. Hosts listed: `registry.npmjs.org`, `registry.yarnpkg.com`, `example.com:8080`.",
    );
    const refused = await say("project allow-host demo localhost:4873", OWNER);
    expect(refused).toContain(
      "Only admins may let the agents of demo reach localhost:4873: it is an address of this machine or its private network",
    );
    expect((await stored()).network_hosts).toBe(
      '["registry.npmjs.org","registry.yarnpkg.com","example.com:8080"]',
    );
    // The admin reads French (CODEXPI_LOCALE=fr) and may list it.
    expect(await say("project allow-host demo localhost:4873")).toContain(
      "Projet *demo* : ajouté `localhost:4873`. Hôtes listés : `registry.npmjs.org`, `registry.yarnpkg.com`, `example.com:8080`, `localhost:4873`.",
    );
    expect(await say("project deny-host demo npm", OWNER)).toContain(
      "Project *demo*: removed `registry.npmjs.org`, `registry.yarnpkg.com`. Hosts listed: `example.com:8080`, `localhost:4873`.",
    );
    // A list while the project is open: said to wait for allowlist mode.
    expect(await say("project set demo --network open", OWNER)).toContain(
      "Project *demo*: its agents reach any public host",
    );
    expect(await say("project allow-host demo pypi", OWNER)).toContain(
      "The list applies only in allowlist mode, and *demo* is in open mode: `/codex project set demo --network allowlist`.",
    );
    expect(await stored()).toMatchObject({ network_mode: "open" });
  });

  it("someone else is told not found; malformed commands get their usage line; /codex projects shows the network to admins and the owner", async () => {
    bot = await slackBot();
    expect(await say("project set demo --network open", OTHER)).toMatch(/introuvable/);
    expect(await say("project allow-host demo npm", OTHER)).toMatch(/introuvable/);
    expect(await stored()).toEqual({ network_mode: "allowlist", network_hosts: "[]" });
    expect(await say("project allow-host demo not/a/host", OWNER)).toContain(
      "`not/a/host` n’est pas un hôte à permettre",
    );
    const usage = await bot.command("project allow-host demo", OWNER);
    expect(usage.text).toContain("/codex project allow-host|deny-host");
    const badMode = await bot.command("project set demo --network wide", OWNER);
    expect(badMode.text).toContain("--network off|allowlist|open");

    await say("project allow-host demo github", OWNER);
    const github = "réseau : `github.com`, `api.github.com`";
    expect(await say("projects")).toContain(github);
    expect(await say("projects", OWNER)).toContain(github);
  });
});
