import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/bot/commandGrammar.js";

describe("/codex schedule and /codex audit grammar", () => {
  it("S-SCHED-07: add takes the project, the quoted cron, flags, then the prompt as typed", () => {
    expect(
      parseCommand(
        'schedule add demo "0 9 * * mon-fri" --tz Europe/Paris --channel <#C123|ci> --catch-up skip résume "la CI"  de la nuit',
      ),
    ).toEqual({
      kind: "schedule.add",
      project: "demo",
      cron: "0 9 * * mon-fri",
      tz: "Europe/Paris",
      channel: "C123",
      catchUp: "skip",
      prompt: 'résume "la CI"  de la nuit',
    });
    expect(parseCommand("schedule add demo “*/5 * * * *” go")).toMatchObject({
      cron: "*/5 * * * *",
      prompt: "go",
    });
    expect(parseCommand("schedule list")).toEqual({ kind: "schedule.list", project: null });
    expect(parseCommand("schedule list demo")).toEqual({ kind: "schedule.list", project: "demo" });
    expect(parseCommand("schedule pause ab12cd34")).toEqual({ kind: "schedule.pause", id: "ab12cd34" });
    expect(parseCommand("schedule resume ab12cd34")).toEqual({ kind: "schedule.resume", id: "ab12cd34" });
    expect(parseCommand("schedule remove ab12cd34")).toEqual({ kind: "schedule.remove", id: "ab12cd34" });
  });

  it("S-SCHED-07: malformed schedule commands get the usage line", () => {
    for (const bad of [
      "schedule",
      "schedule add demo",
      'schedule add demo "* * * * *"',
      'schedule add demo "* * * * *" --channel nowhere go',
      'schedule add demo "* * * * *" --catch-up twice go',
      'schedule add demo "* * * * *" --tz',
      "schedule pause",
      "schedule frobnicate x",
    ])
      expect(parseCommand(bad), bad).toEqual({ kind: "usage", topic: "schedule" });
  });

  it("S-AUDIT-03: audit takes a project, a person, a since and a page", () => {
    expect(parseCommand("audit")).toEqual({ kind: "audit", project: null, user: null, since: null, page: 1 });
    expect(parseCommand("audit demo --user <@U123|bob> --since 7d --page 2")).toEqual({
      kind: "audit",
      project: "demo",
      user: "U123",
      since: "7d",
      page: 2,
    });
    expect(parseCommand("audit --user schedule:ab12cd34")).toMatchObject({ user: "schedule:ab12cd34" });
    for (const bad of ["audit a b", "audit --page 0", "audit --user nobody", "audit --since"])
      expect(parseCommand(bad), bad).toEqual({ kind: "usage", topic: "audit" });
  });
});
