import { describe, expect, it } from "vitest";
import { parseCommand, slackChannel, slackUser, tokenize } from "../../src/bot/commandGrammar.js";
import { parseMention } from "../../src/bot/listeners/events.js";
import { en } from "../../src/i18n/en.js";
import { fr } from "../../src/i18n/fr.js";

describe("/codex grammar", () => {
  it("ask keeps the prompt exactly as typed after the project", () => {
    expect(parseCommand("ask demo  fix the   build, then run `npm test`")).toEqual({
      kind: "ask",
      project: "demo",
      prompt: "fix the   build, then run `npm test`",
      text: "demo  fix the   build, then run `npm test`",
    });
    expect(parseCommand('ask "Projet source" corrige le test')).toEqual({
      kind: "ask",
      project: "Projet source",
      prompt: "corrige le test",
      text: '"Projet source" corrige le test',
    });
    expect(parseCommand("ask “Projet source” corrige")).toEqual({
      kind: "ask",
      project: "Projet source",
      prompt: "corrige",
      text: "“Projet source” corrige",
    });
  });

  it("S-MEM-13: remember takes --here right after the project (this channel's note); elsewhere it is the note's words", () => {
    expect(parseCommand("remember demo --here  the mobile   app")).toEqual({
      kind: "memory.remember",
      project: "demo",
      text: "the mobile   app",
      here: true,
    });
    expect(parseCommand("remember demo use --here in docs")).toEqual({
      kind: "memory.remember",
      project: "demo",
      text: "use --here in docs",
      here: false,
    });
    expect(parseCommand("remember demo --heresy is a word")).toMatchObject({
      text: "--heresy is a word",
      here: false,
    });
    expect(parseCommand("remember demo --here")).toEqual({ kind: "usage", topic: "remember" });
  });

  it("S-FH-07: a mistyped sub-command is unknown, with the sub-command within two edits it most likely meant", () => {
    expect(parseCommand("aks demo fix it")).toEqual({ kind: "unknown", command: "aks", suggestion: "ask" });
    expect(parseCommand("stauts")).toMatchObject({ suggestion: "status" });
    expect(parseCommand("projts")).toMatchObject({ suggestion: "projets" });
    expect(parseCommand("Shedule add demo")).toMatchObject({ kind: "unknown", suggestion: "schedule" });
    // Far from every sub-command, or too short to guess at: no suggestion.
    expect(parseCommand("nonsense")).toMatchObject({ kind: "unknown", suggestion: null });
    expect(parseCommand("x")).toMatchObject({ kind: "unknown", suggestion: null });
  });

  it("S-FH-07: every sub-command the help documents is known, and a typo of it is led to it", () => {
    const documented = new Set<string>();
    for (const catalog of [en, fr] as Record<string, unknown>[])
      for (const [key, text] of Object.entries(catalog))
        if (key.endsWith(".syntax") && typeof text === "string")
          for (const m of text.matchAll(/\/codex ([\p{L}]+)/gu)) documented.add(m[1] as string);
    expect(documented.size).toBeGreaterThan(15); // the catalogs were read
    for (const word of documented) {
      expect(parseCommand(word).kind, word).not.toBe("unknown");
      // One letter dropped from the middle: the suggestion is that very word.
      const typo = word.slice(0, 2) + word.slice(3);
      if (typo.length >= 4)
        expect(parseCommand(typo), word).toMatchObject({ kind: "unknown", suggestion: word });
    }
    // Positive control: a word the grammar does not know is unknown.
    expect(parseCommand("deploy").kind).toBe("unknown");
  });

  it("malformed input is a usage topic, never an exception", () => {
    expect(parseCommand("ask")).toEqual({ kind: "usage", topic: "ask" });
    expect(parseCommand("ask demo")).toEqual({ kind: "usage", topic: "ask" });
    expect(parseCommand("dance")).toEqual({ kind: "unknown", command: "dance", suggestion: null });
    expect(parseCommand("status now")).toEqual({ kind: "usage", topic: "general" });
    expect(parseCommand("project")).toEqual({ kind: "usage", topic: "project" });
    expect(parseCommand("project add demo")).toEqual({ kind: "usage", topic: "project.add" });
    expect(parseCommand("project add demo /srv/demo --owner bob")).toEqual({
      kind: "usage",
      topic: "project.add",
    });
    expect(parseCommand("project add demo /srv/demo --role boss")).toEqual({
      kind: "usage",
      topic: "project.add",
    });
    expect(parseCommand("project set demo")).toEqual({ kind: "usage", topic: "project.set" });
    expect(parseCommand("project set demo --full-access maybe")).toEqual({
      kind: "usage",
      topic: "project.set",
    });
    expect(parseCommand("project remove")).toEqual({ kind: "usage", topic: "project.remove" });
  });

  it("help, projects and status; an empty command is help", () => {
    expect(parseCommand("")).toEqual({ kind: "help" });
    expect(parseCommand("help")).toEqual({ kind: "help" });
    expect(parseCommand("projects")).toEqual({ kind: "projects" });
    expect(parseCommand(" status ")).toEqual({ kind: "status" });
  });

  it("project add reads Slack's escaped users and channels and the flags", () => {
    expect(
      parseCommand(
        "project add demo /srv/demo --owner <@U123ABC|alice> --channel <#C42|dev> --full-access --merge-confirmation --role master",
      ),
    ).toEqual({
      kind: "project.add",
      name: "demo",
      path: "/srv/demo",
      owner: "U123ABC",
      channel: "C42",
      fullAccess: true,
      mergeConfirmation: true,
      role: "master",
    });
  });

  it("project set changes only what it names; none clears", () => {
    expect(parseCommand("project set demo --owner none --full-access off --max-concurrent 3")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { owner: null, fullAccess: false, maxConcurrent: 3 },
    });
  });

  it("project set --path takes a directory, which the engine then checks (no overlap with another project)", () => {
    expect(parseCommand("project set billing --path /srv/billing")).toEqual({
      kind: "project.set",
      name: "billing",
      changes: { path: "/srv/billing" },
    });
    expect(parseCommand("project set billing --path")).toEqual({ kind: "usage", topic: "project.set" });
  });

  it("project set --approvals takes never or on-request", () => {
    expect(parseCommand("project set demo --approvals on-request")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { approvalMode: "on-request" },
    });
    expect(parseCommand("project set demo --approvals always")).toEqual({
      kind: "usage",
      topic: "project.set",
    });
  });

  it("project set --steer takes on or off", () => {
    expect(parseCommand("project set demo --steer on")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { steer: true },
    });
    expect(parseCommand("project set demo --steer off")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { steer: false },
    });
    expect(parseCommand("project set demo --steer always")).toEqual({ kind: "usage", topic: "project.set" });
  });

  it("project set --workspace takes direct or branch (the engine decides whether branch is possible)", () => {
    expect(parseCommand("project set demo --workspace direct")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { workspace: "direct" },
    });
    expect(parseCommand("project set demo --workspace branch --steer on")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { workspace: "branch", steer: true },
    });
    expect(parseCommand("project set demo --workspace lanes")).toEqual({
      kind: "usage",
      topic: "project.set",
    });
    expect(parseCommand("project set demo --workspace")).toEqual({ kind: "usage", topic: "project.set" });
  });

  it("project set --host takes a host name or none (the coordinator's machine)", () => {
    expect(parseCommand("project set demo --host build-box.2")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { host: "build-box.2" },
    });
    expect(parseCommand("project set demo --host none")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { host: null },
    });
    expect(parseCommand("project set demo --host ../etc")).toEqual({ kind: "usage", topic: "project.set" });
  });

  it("project set --default-for takes a channel", () => {
    expect(parseCommand("project set demo --default-for <#C7|dev>")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { defaultFor: "C7" },
    });
    expect(parseCommand("project set demo --default-for none")).toEqual({
      kind: "project.set",
      name: "demo",
      changes: { defaultFor: null },
    });
    expect(parseCommand("project set demo --default-for nowhere")).toEqual({
      kind: "usage",
      topic: "project.set",
    });
  });

  it("tokens, users and channels", () => {
    expect(tokenize('a "b c" d')).toEqual(["a", "b c", "d"]);
    expect(slackUser("<@U1AB>")).toBe("U1AB");
    expect(slackUser("alice")).toBeNull();
    expect(slackChannel("<#C1AB|general>")).toBe("C1AB");
  });

  it("a mention names the project then the prompt; the bot's own mention is removed", () => {
    expect(parseMention("<@UBOT> demo fix it", "UBOT")).toEqual({ project: "demo", prompt: "fix it" });
    expect(parseMention("hey <@UBOT|codexpi> demo please", "UBOT")).toEqual({
      project: "hey",
      prompt: "demo please",
    });
    expect(parseMention("<@UBOT> demo", "UBOT")).toBeNull();
  });
});

describe("/codex grammar: coordination", () => {
  it("decisions, incidents, specialists, specialist add and notify", () => {
    expect(parseCommand("decisions")).toEqual({ kind: "decisions" });
    expect(parseCommand("incidents")).toEqual({ kind: "incidents" });
    expect(parseCommand("specialists")).toEqual({ kind: "specialists" });
    expect(parseCommand("specialist add")).toEqual({ kind: "specialist.add", shared: false });
    expect(parseCommand("specialist add --shared")).toEqual({ kind: "specialist.add", shared: true });
    expect(parseCommand("specialist remove")).toEqual({ kind: "usage", topic: "specialist.add" });
    expect(parseCommand("notify")).toEqual({ kind: "notify", change: null });
    expect(parseCommand("notify decisions off")).toEqual({
      kind: "notify",
      change: { key: "decisions", on: false },
    });
    expect(parseCommand("notify everything off")).toEqual({ kind: "usage", topic: "notify" });
    expect(parseCommand("notify decisions maybe")).toEqual({ kind: "usage", topic: "notify" });
  });
});
