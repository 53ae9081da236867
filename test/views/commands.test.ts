import { describe, expect, it } from "vitest";
import {
  COMMANDS,
  errorView,
  helpView,
  projectsView,
  statusView,
  unknownCommand,
  usage,
  type ProjectListItem,
  type StatusInput,
} from "../../src/views/commands.js";
import { expectWithinBlockKit, texts } from "./blockKit.js";

const project = (i: number, over: Partial<ProjectListItem> = {}): ProjectListItem => ({
  name: `projet-${i}`,
  path: `/srv/git/projet-${i}`,
  ownerId: "U0OWNER",
  fullAccess: false,
  mergeConfirmation: false,
  channelId: null,
  role: "project",
  ...over,
});

const status = (over: Partial<StatusInput> = {}): StatusInput => ({
  queued: 0,
  running: [],
  limits: {
    max_concurrent: 2,
    load_pause_percent: 150,
    memory_pause_percent: 90,
    background_start_hour: 0,
    background_end_hour: 0,
  },
  host: { loadPercent: 12.4, memoryPercent: 48.6 },
  paused: [],
  now: 1_000_000,
  ...over,
});

describe("helpView", () => {
  it("lists every sub-command this version answers, admin ones marked, and none that it does not", () => {
    const view = helpView("fr", { isAdmin: true });
    const all = texts(view.blocks).join("\n");
    for (const syntax of ["/codex ask", "/codex projects", "/codex status", "/codex help"]) {
      expect(all).toContain(`\`${syntax}`);
    }
    expect(all).toContain("`/codex orchestrate");
    for (const c of COMMANDS.filter((x) => !x.live))
      expect(all).not.toContain(`\`${usage("fr", c.topic).replace(/^[^`]*`|`$/g, "")}\``);
    expect(all).toMatch(/🔒 `\/codex project add/);
    expect(all).toMatch(/🔒 `\/codex project remove/);
    expect(all).toMatch(/🔒 `\/codex project set/);
    expect(all).toContain("réservées aux admins");
    expectWithinBlockKit(view.blocks);
  });

  it("hides admin commands from other users", () => {
    const all = texts(helpView("en", { isAdmin: false }).blocks).join("\n");
    expect(all).not.toContain("/codex project add");
    expect(all).not.toContain("🔒");
    expect(all).toContain(
      "/codex ask &lt;project&gt; [model=&lt;model&gt;] [effort=low|medium|high] [branch=&lt;branch&gt;] &lt;prompt&gt;",
    );
  });

  it("has a description for each sub-command in both languages", () => {
    for (const locale of ["fr", "en"] as const) {
      const lines = texts(helpView(locale, { isAdmin: true }).blocks)
        .join("\n")
        .split("\n")
        .filter((l) => l.includes("`/codex"));
      expect(lines).toHaveLength(COMMANDS.filter((c) => c.live).length);
      for (const line of lines) expect(line).toMatch(/` — \S/);
    }
  });
});

describe("usage", () => {
  it("gives one escaped usage line per sub-command", () => {
    expect(usage("fr", "ask")).toBe(
      "Usage : `/codex ask &lt;projet&gt; [model=&lt;modèle&gt;] [effort=low|medium|high] [branch=&lt;branche&gt;] &lt;consigne&gt;`",
    );
    expect(usage("en", "ask")).toBe(
      "Usage: `/codex ask &lt;project&gt; [model=&lt;model&gt;] [effort=low|medium|high] [branch=&lt;branch&gt;] &lt;prompt&gt;`",
    );
    expect(usage("fr", "project.remove")).toBe("Usage : `/codex project remove &lt;nom&gt;`");
    for (const { topic } of COMMANDS) expect(usage("fr", topic)).toMatch(/^Usage : `\/codex /);
    expect(usage("fr", "general")).toContain("/codex help|ask");
    expect(usage("en", "project")).toContain("/codex project add|remove|set");
  });
});

describe("projectsView", () => {
  it("shows each project's name, path, owner, access and options", () => {
    const view = projectsView("fr", [
      project(1),
      project(2, {
        ownerId: null,
        fullAccess: true,
        mergeConfirmation: true,
        channelId: "C0CHAN",
        role: "self",
        name: "CodexPi (Self)",
      }),
    ]);
    const all = texts(view.blocks).join("\n");
    expect(texts(view.blocks)[0]).toBe("Projets (2)");
    expect(all).toContain("*projet-1* · `/srv/git/projet-1`");
    expect(all).toContain("propriétaire <@U0OWNER>");
    expect(all).toContain("bac à sable");
    expect(all).toContain("*auto-réparation*");
    expect(all).toContain("propriétaire partagé");
    expect(all).toContain("canal <#C0CHAN>");
    expect(all).toContain("accès complet");
    expect(all).toContain("fusion sur confirmation");
    expectWithinBlockKit(view.blocks);
  });

  it("shows where each project's conversations work when it is given", () => {
    const view = projectsView("en", [
      project(1, { workspaceMode: "direct" }),
      project(2, { workspaceMode: "branch" }),
      project(3),
    ]);
    const entries = texts(view.blocks).join("\n").split("\n\n");
    expect(entries.find((e) => e.includes("projet-1"))).toContain(
      "direct: one agent at a time in its checkout",
    );
    expect(entries.find((e) => e.includes("projet-2"))).toContain("branch: a lane per conversation");
    expect(entries.find((e) => e.includes("projet-3"))).not.toMatch(/direct|branch/);
  });

  it("says how to add one when there is none", () => {
    expect(texts(projectsView("en", []).blocks).join("\n")).toContain("/codex project add");
  });

  it("stays within 50 blocks for a thousand projects and counts the ones left out", () => {
    const view = projectsView(
      "fr",
      Array.from({ length: 1000 }, (_, i) => project(i, { path: `/srv/${"p".repeat(300)}/${i}` })),
    );
    expectWithinBlockKit(view.blocks);
    const last = texts(view.blocks).at(-1) ?? "";
    const shown =
      texts(view.blocks)
        .join("\n")
        .match(/\*projet-\d+\*/g)?.length ?? 0;
    expect(last).toBe(`… et ${1000 - shown} autres`);
  });
});

describe("statusView", () => {
  it("shows the queue, the running agents against the limit and the host readings", () => {
    const view = statusView(
      "fr",
      status({
        queued: 3,
        running: [
          {
            projectName: "nasflix",
            title: "Corriger",
            activity: "npm test",
            startedAt: 1_000_000 - 65_000,
            conversationLink: "https://x.slack.com/archives/C1/p1",
          },
        ],
      }),
    );
    const all = texts(view.blocks).join("\n");
    expect(all).toContain("*En file* : 3 demandes");
    expect(all).toContain("*En cours* : 1 sur 2");
    expect(all).toContain("*Charge* : 12 % (pause au-dessus de 150 %)");
    expect(all).toContain("*Mémoire* : 49 %");
    expect(all).toContain("à toute heure");
    expect(all).toContain(
      "• *nasflix* — Corriger — _npm test_ — depuis 1 min 5 s — <https://x.slack.com/archives/C1/p1|ouvrir>",
    );
    expect(all).not.toContain("⏸️");
    expectWithinBlockKit(view.blocks);
  });

  it("explains every pause reason and the background window", () => {
    const view = statusView(
      "en",
      status({
        paused: ["concurrency", "load", "memory"],
        limits: { ...status().limits, background_start_hour: 22, background_end_hour: 7 },
      }),
    );
    const all = texts(view.blocks).join("\n");
    expect(all).toContain(
      "⏸️ New work is paused: the maximum number of concurrent agents is reached, the host is too busy, memory is nearly full.",
    );
    expect(all).toContain("from 22:00 to 7:00");
    expect(all).toContain("No agent running.");
  });

  it("stays within limits with hundreds of running agents", () => {
    const running = Array.from({ length: 500 }, (_, i) => ({
      projectName: `p${i}`,
      title: "t".repeat(400),
      activity: "a".repeat(400),
      startedAt: 0,
    }));
    const view = statusView("fr", status({ running }));
    expectWithinBlockKit(view.blocks);
    expect(texts(view.blocks).at(-1)).toMatch(/^… et \d+ autres$/);
  });
});

describe("errorView", () => {
  it("maps each engine error code to its catalog message with the detail escaped", () => {
    expect(
      errorView("fr", { code: "not_found", message: "project not found: <x>", params: { name: "<x>" } }),
    ).toBe("⚠️ Introuvable : project not found: &lt;x&gt;");
    expect(errorView("en", { code: "conflict", message: "already answered" })).toBe(
      "⚠️ Not possible right now: already answered",
    );
    expect(errorView("en", { code: "invalid", message: "raw", params: { detail: "max_concurrent" } })).toBe(
      "⚠️ Invalid request: max_concurrent",
    );
    expect(errorView("fr", { code: "forbidden", message: "admins only" })).toBe(
      "⚠️ Action non autorisée : admins only",
    );
    expect(errorView("en", { code: "unavailable", message: "database busy" })).toBe(
      "⚠️ Service temporarily unavailable: database busy. Try again in a moment.",
    );
  });

  it("gives a generic message for an unknown code", () => {
    expect(errorView("fr", { code: "boom", message: "stack" })).toBe(
      "⚠️ Une erreur inattendue s’est produite ; elle est consignée dans les journaux du bot.",
    );
  });
});

describe("unknownCommand", () => {
  it("S-FH-07: suggests the sub-command a typo most likely meant, in the reader's language", () => {
    expect(unknownCommand("en", "aks", "ask")).toBe(
      "Unknown command: `aks`. Did you mean `/codex ask`? Type `/codex help` for the list.",
    );
    expect(unknownCommand("fr", "aks", "ask")).toBe(
      "Commande inconnue : `aks`. Voulais-tu dire `/codex ask` ? Tape `/codex help` pour la liste.",
    );
  });

  it("names the word and points to the list, in the reader's language", () => {
    expect(unknownCommand("en", "dance")).toBe("Unknown command: `dance`. Type `/codex help` for the list.");
    expect(unknownCommand("fr", "dance")).toBe(
      "Commande inconnue : `dance`. Tape `/codex help` pour la liste.",
    );
  });

  it("a backtick in the word cannot close the code span; a long word is clipped", () => {
    expect(unknownCommand("en", "a`b")).toContain("`a'b`");
    expect(unknownCommand("en", "x".repeat(500)).length).toBeLessThan(120);
  });
});
