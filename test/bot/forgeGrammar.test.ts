import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/bot/commandGrammar.js";

describe("/codex project forge grammar", () => {
  it("S-CARD-15: `project forge NAME` shows; its flags (and the CLI's names) change the kind, repository, API URL and remote; `none` clears; a Slack link is unwrapped; a token is never taken", () => {
    expect(parseCommand("project forge app")).toEqual({
      kind: "project.forge",
      name: "app",
      changes: null,
      tokenGiven: false,
    });
    expect(
      parseCommand(
        "project forge app --kind gitlab --repo acme/tools/app --url <https://git.example/api/v4> --remote up",
      ),
    ).toEqual({
      kind: "project.forge",
      name: "app",
      changes: {
        forge: "gitlab",
        forgeRepo: "acme/tools/app",
        forgeUrl: "https://git.example/api/v4",
        remote: "up",
      },
      tokenGiven: false,
    });
    expect(parseCommand("project forge app --forge github --forge-repo a/b --forge-url none")).toMatchObject({
      changes: { forge: "github", forgeRepo: "a/b", forgeUrl: null },
    });
    expect(parseCommand("project forge app --kind none --repo none")).toMatchObject({
      changes: { forge: null, forgeRepo: null },
    });
    // A token given here is flagged (the handler refuses it), never a change.
    expect(parseCommand("project forge app --token ghp_secret123456")).toEqual({
      kind: "project.forge",
      name: "app",
      changes: null,
      tokenGiven: true,
    });
    for (const bad of [
      "project forge",
      "project forge --kind github",
      "project forge app --kind bitbucket",
      "project forge app --repo",
      "project forge app --owner x",
    ])
      expect(parseCommand(bad)).toEqual({ kind: "usage", topic: "project.forge" });
  });
});
