import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OWNER, slackBot } from "../support/slackBot.js";

// `/codex project set <name> --workspace direct|branch` through the real app against the fake
// Slack (issue 18): admins only; branch is refused for a directory that is no repository, saying
// why, and set for a repository; `/codex projects` shows the mode.
describe("a project's workspace mode from Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const say = async (text: string, user = ADMIN) => {
    const r = await bot.command(text, user);
    const response = await bot.response(r.responseId);
    return [response.text ?? "", JSON.stringify(response.blocks ?? [])].join("\n");
  };
  const modeOfDemo = async () =>
    (
      await bot.db
        .selectFrom("projects")
        .select("workspace_mode")
        .where("name", "=", "demo")
        .executeTakeFirstOrThrow()
    ).workspace_mode;

  it("an admin sets direct; its owner is refused; branch is refused for a plain directory and set for a repository; the list shows it", async () => {
    bot = await slackBot();
    expect(await say("project set demo --workspace direct", OWNER)).toMatch(/réservé aux admins/i);
    expect(await say("project set demo --workspace direct")).toContain(
      "Le projet *demo* travaille directement dans sa copie de travail : un agent à la fois",
    );
    const plain = await say("project set demo --workspace branch");
    expect(plain).toContain("n’est pas la racine d’un dépôt git");
    await execa("git", ["init", "-q", bot.project.path]);
    expect(await modeOfDemo()).toBe("direct"); // positive control: the refusal changed nothing
    expect(await say("projects", OWNER)).toContain("direct : un agent à la fois dans sa copie de travail");
    const repository = await say("project set demo --workspace branch");
    expect(repository).toContain("travaille en voies");
    expect(repository).not.toContain("n’est pas la racine");
    expect(await modeOfDemo()).toBe("branch");
    expect(await say("projects", OWNER)).toContain("branche : une voie par conversation");
  });
});
