import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, OWNER, slackBot } from "../support/slackBot.js";

// `/codex project set <name> --workspace direct|branch` through the real app against the fake
// Slack (issue 18, first increment): admins only; branch is refused, saying why; `/codex projects`
// shows the mode.
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

  it("an admin sets direct; its owner is refused; branch is refused for a plain directory, then for a repository until lanes exist; the list shows it", async () => {
    bot = await slackBot();
    expect(await say("project set demo --workspace direct", OWNER)).toMatch(/réservé aux admins/i);
    expect(await say("project set demo --workspace direct")).toContain(
      "Le projet *demo* travaille directement dans sa copie de travail : un agent à la fois",
    );
    const plain = await say("project set demo --workspace branch");
    expect(plain).toContain("n’est pas la racine d’un dépôt git");
    await execa("git", ["init", "-q", bot.project.path]);
    const repository = await say("project set demo --workspace branch");
    expect(repository).toMatch(/le mode branch n’est pas encore disponible/i);
    expect(repository).not.toContain("n’est pas la racine"); // positive control of the first refusal
    expect(await modeOfDemo()).toBe("direct");
    expect(await say("projects", OWNER)).toContain("direct : un agent à la fois dans sa copie de travail");
  });
});
