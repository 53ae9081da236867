import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/bot/commandGrammar.js";

// The words of `/codex channel …` and `/codex project share|unshare …` (issue 32, item 4).
describe("/codex channel and project share grammar", () => {
  it("S-CHAN-03: `channel set` reads key=value words, quoted values whole; unknown keys, empty, repeated and bad efforts are refused by name", () => {
    expect(parseCommand("channel")).toEqual({ kind: "channel.show" });
    expect(parseCommand("canal")).toEqual({ kind: "channel.show" });
    expect(
      parseCommand('channel set project=demo model=gpt-5.5 effort=high instructions="Be terse, cite files"'),
    ).toEqual({
      kind: "channel.set",
      settings: { project: "demo", model: "gpt-5.5", effort: "high", instructions: "Be terse, cite files" },
    });
    expect(parseCommand("channel set instructions=“Réponds en français”")).toEqual({
      kind: "channel.set",
      settings: { instructions: "Réponds en français" },
    });
    expect(parseCommand("channel set modle=x")).toEqual({
      kind: "channel.refused",
      problem: "unknown_key",
      key: "modle",
      suggestion: "model",
    });
    expect(parseCommand("channel set colour=blue")).toMatchObject({
      problem: "unknown_key",
      suggestion: null,
    });
    expect(parseCommand("channel set model=")).toMatchObject({ problem: "empty", key: "model" });
    expect(parseCommand("channel set model=a model=b")).toMatchObject({ problem: "repeated", key: "model" });
    expect(parseCommand("channel set effort=max")).toMatchObject({ problem: "effort", value: "max" });
    expect(parseCommand("channel set")).toEqual({ kind: "usage", topic: "channel" });
    expect(parseCommand("channel set demo")).toEqual({ kind: "usage", topic: "channel" });
    expect(parseCommand("channel unset model effort")).toEqual({
      kind: "channel.unset",
      keys: ["model", "effort"],
    });
    expect(parseCommand("channel unset modle")).toMatchObject({
      problem: "unknown_key",
      suggestion: "model",
    });
    expect(parseCommand("channel clear")).toEqual({
      kind: "channel.unset",
      keys: ["project", "model", "effort", "instructions"],
    });
    expect(parseCommand("channel wipe")).toEqual({ kind: "usage", topic: "channel" });
  });

  it("S-CHAN-05: `project share NAME #channel [--prompt]` and `unshare NAME #channel`", () => {
    expect(parseCommand("project share demo <#C5|team> --prompt")).toEqual({
      kind: "project.share",
      name: "demo",
      channel: "C5",
      prompt: true,
    });
    expect(parseCommand("project share demo <#C5>")).toMatchObject({ kind: "project.share", prompt: false });
    expect(parseCommand("project unshare demo <#C5|team>")).toEqual({
      kind: "project.unshare",
      name: "demo",
      channel: "C5",
    });
    for (const bad of ["project share demo", "project share demo team", "project share demo <#C5> --read"])
      expect(parseCommand(bad)).toEqual({ kind: "usage", topic: "project.share" });
  });
});
