import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/bot/commandGrammar.js";

describe("/codex usage and /codex budget grammar", () => {
  it("S-USE-03: usage takes an optional project and --days; budget set/list/clear name a project or a Slack user", () => {
    expect(parseCommand("usage")).toEqual({ kind: "usage.show", project: null, days: null });
    expect(parseCommand("usage demo --days 30")).toEqual({ kind: "usage.show", project: "demo", days: 30 });
    expect(parseCommand("usage --days 2")).toEqual({ kind: "usage.show", project: null, days: 2 });
    expect(parseCommand("usage --days x")).toEqual({ kind: "usage", topic: "usage" });
    expect(parseCommand("usage a b")).toEqual({ kind: "usage", topic: "usage" });
    expect(parseCommand("budget set project demo --daily 200000 --monthly 3000000")).toEqual({
      kind: "budget.set",
      target: { scope: "project", name: "demo" },
      daily: 200000,
      monthly: 3000000,
    });
    expect(parseCommand("budget set user <@U123|alice> --monthly none")).toEqual({
      kind: "budget.set",
      target: { scope: "user", name: "U123" },
      monthly: null,
    });
    expect(parseCommand("budget list")).toEqual({ kind: "budget.list" });
    expect(parseCommand("budget clear project demo")).toEqual({
      kind: "budget.clear",
      target: { scope: "project", name: "demo" },
    });
    for (const bad of [
      "budget",
      "budget set project demo",
      "budget set project demo --daily",
      "budget set project demo --daily -5",
      "budget set project demo --weekly 5",
      "budget set user alice --daily 5",
      "budget clear project demo --daily 5",
      "budget list all",
    ])
      expect(parseCommand(bad), bad).toEqual({ kind: "usage", topic: "budget" });
  });
});
