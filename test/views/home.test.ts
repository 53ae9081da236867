import { describe, expect, it } from "vitest";
import { HOME_LIST_ITEMS, homeView, type HomeOverview } from "../../src/views/home.js";
import { ACTIONS } from "../../src/views/ids.js";
import { MAX_SURFACE_BLOCKS } from "../../src/views/limits.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const policies = {
  global: {
    max_concurrent: 2,
    load_pause_percent: 150,
    memory_pause_percent: 90,
    background_start_hour: 22,
    background_end_hour: 7,
  },
  projects: [{ name: "nasflix", effective_max_concurrent: 1 }],
};

const empty: HomeOverview = {
  decisions: [],
  incidents: [],
  runtime_policies: { ...policies, projects: [] },
  specialists: [],
};

const overview = (n: number): HomeOverview => ({
  decisions: Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    title: `Choix ${i}`,
    question: "Quelle base ? ".repeat(100),
    projectName: "nasflix",
  })),
  incidents: Array.from({ length: n }, (_, i) => ({
    id: `i${i}`,
    status: i % 2 ? "OPEN" : "FAILED",
    projectName: "nasflix",
    error: "boom ".repeat(500),
  })),
  runtime_policies: {
    global: policies.global,
    projects: Array.from({ length: n }, (_, i) => ({ name: `projet-${i}`, effective_max_concurrent: 2 })),
  },
  specialists: Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    name: `Spécialiste ${i}`,
    status: i % 2 ? "ACTIVE" : "FAILED",
    capabilities: Array.from({ length: 50 }, (_, j) => `cap.${j}`),
  })),
  run: { status: "RUNNING", stage: "AGENT", title: "Migration" },
});

describe("homeView", () => {
  it("is a home view with the four parts of the overview", () => {
    const view = homeView("fr", overview(2));
    expect(view.type).toBe("home");
    const headers = view.blocks.flatMap((b) => (b.type === "header" ? [b.text.text] : []));
    expect(headers).toEqual([
      "codexpi",
      "Décisions en attente (2)",
      "Incidents (2)",
      "Politique d’exécution",
      "Spécialistes (2)",
    ]);
    expectWithinBlockKit(view.blocks, MAX_SURFACE_BLOCKS);
  });

  it("shows the current run when there is one, and nothing about it otherwise", () => {
    expect(texts(homeView("fr", overview(1)).blocks).join("\n")).toContain(
      "*Migration* · en cours · l’agent du projet travaille",
    );
    expect(texts(homeView("fr", empty).blocks).join("\n")).not.toContain("Run autonome");
  });

  it("shows empty states", () => {
    const all = texts(homeView("en", empty).blocks).join("\n");
    expect(all).toContain("No pending decision.");
    expect(all).toContain("No open incident.");
    expect(all).toContain("No project registered.");
    expect(all).toContain("No specialist.");
    expect(buttons(homeView("en", empty).blocks)).toEqual([]);
  });

  it("shows the global policy and each project's effective limit", () => {
    const all = texts(homeView("fr", { ...empty, runtime_policies: policies }).blocks).join("\n");
    expect(all).toContain(
      "*Global* : 2 agents simultanés · pause si charge au-dessus de 150 % ou mémoire au-dessus de 90 %",
    );
    expect(all).toContain("de 22 h à 7 h");
    expect(all).toContain("• nasflix : 1 agent max");
  });

  it("offers Retry on failed incidents and Rebuild on failed specialists, carrying their ids", () => {
    const view = homeView("fr", overview(2));
    const found = buttons(view.blocks).map((b) => [b.action_id, b.value]);
    expect(found).toEqual([
      [ACTIONS.incidentRetry, "i0"],
      [ACTIONS.specialistRebuild, "s0"],
    ]);
  });

  it("lets an incident say itself whether it can be retried", () => {
    const view = homeView("fr", {
      ...empty,
      incidents: [{ id: "i9", status: "OPEN", projectName: "p", error: null, retryable: true }],
    });
    expect(buttons(view.blocks).map((b) => b.value)).toEqual(["i9"]);
  });

  it("stays within 100 blocks however long the lists, and says how many are not shown", () => {
    const view = homeView("fr", overview(500));
    expectWithinBlockKit(view.blocks, MAX_SURFACE_BLOCKS);
    const mores = texts(view.blocks).filter((t) => t.startsWith("… et "));
    expect(mores).toContain(`… et ${500 - HOME_LIST_ITEMS} autres`);
    expect(mores.length).toBeGreaterThanOrEqual(4);
  });

  it("lists pending approvals with the decisions (their command, project and card link), in the same budget of blocks", () => {
    const approval = (i: number) => ({
      approval: {
        id: `a${i}`,
        kind: "command" as const,
        command: `npm install pkg-${i}`,
        files: [],
        project_name: "nasflix",
      },
      link: `https://slack.test/archives/C1/p${i}`,
    });
    const some = homeView("fr", { ...overview(1), approvals: [approval(7)] });
    const headers = some.blocks.flatMap((b) => (b.type === "header" ? [b.text.text] : []));
    expect(headers).toContain("Décisions et approbations en attente (2)");
    const all = texts(some.blocks).join("\n");
    expect(all).toContain("`npm install pkg-7` · *nasflix*");
    expect(all).toContain("<https://slack.test/archives/C1/p7|voir la demande>");
    // Without approvals the header stays the decisions' own (control).
    expect(
      homeView("fr", overview(1)).blocks.flatMap((b) => (b.type === "header" ? [b.text.text] : [])),
    ).toContain("Décisions en attente (1)");
    const many = homeView("fr", {
      ...overview(500),
      approvals: Array.from({ length: 500 }, (_, i) => approval(i)),
    });
    expectWithinBlockKit(many.blocks, MAX_SURFACE_BLOCKS);
    expect(texts(many.blocks)).toContain(`… et ${1000 - HOME_LIST_ITEMS} autres`);
  });

  it("escapes what agents and users wrote", () => {
    const view = homeView("fr", {
      ...empty,
      decisions: [{ id: "d", title: "<!channel>", question: "a & b", projectName: "p" }],
    });
    const all = texts(view.blocks).join("\n");
    expect(all).not.toContain("<!channel>");
    expect(all).toContain("a &amp; b");
  });
});

describe("homeView states", () => {
  it("shows states and stages in the person's language, never the raw codes", () => {
    const en = texts(homeView("en", overview(2)).blocks).join("\n");
    expect(en).toContain("running");
    expect(en).toMatch(/open/i);
    expect(en).not.toMatch(/\bOPEN\b|\bFAILED\b|\bACTIVE\b|\bRUNNING\b|\bAGENT\b/);
    const fr = texts(homeView("fr", overview(2)).blocks).join("\n");
    expect(fr).toContain("en cours");
    expect(fr).toContain("ouvert");
    expect(fr).not.toMatch(/\bOPEN\b|\bFAILED\b|\bACTIVE\b|\bRUNNING\b/);
  });

  it("shows a state it does not know as it is (positive control of the mapping)", () => {
    const view = homeView("en", {
      ...empty,
      incidents: [{ id: "i", status: "SOMETHING_NEW", projectName: "p", error: null }],
    });
    expect(texts(view.blocks).join("\n")).toContain("SOMETHING_NEW");
  });
});
