import { describe, expect, it } from "vitest";
import type { RunDetail, RunStepView } from "../../src/engine/runs/index.js";
import type { Block } from "../../src/views/blocks.js";
import { ACTIONS, BLOCKS, CALLBACKS, INPUTS } from "../../src/views/ids.js";
import type { InputBlock } from "../../src/views/interactive.js";
import * as L from "../../src/views/limits.js";
import {
  MAX_PLAN_INPUT,
  RUN_PLAN_INPUT,
  blockedInputOf,
  parsePlanText,
  planJson,
  readRunModalMetadata,
  readRunPlan,
  runBlockedMessage,
  runDetailView,
  runFinalReport,
  runPlanErrors,
  runReviseModal,
  runRootMessage,
  runStartModal,
  runVerdictMessages,
} from "../../src/views/runs.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const step = (n: number, over: Partial<RunStepView> = {}): RunStepView => ({
  id: `step-${n}`,
  order: n,
  phase: 1,
  phase_label: "Mesurer",
  title: `Réduire la charge ${n}`,
  summary: "Mesurer puis corriger.",
  risk: "code",
  target: "NASflix",
  aliases: ["NASFLIX"],
  project_id: "p1",
  project_name: "NASflix",
  prompt: "Inspecter les traitements de fond.",
  status: "PENDING",
  conversation_id: null,
  queue_id: null,
  attempts: 0,
  feedback: null,
  finished_at: null,
  ...over,
});

const run = (over: Partial<RunDetail> = {}): RunDetail => ({
  id: "run-1",
  owner_id: "U0OWNER",
  status: "RUNNING",
  stage: "AGENT",
  error: null,
  correction_round: 0,
  active_queue_id: "q1",
  master_project_id: "m1",
  master_conversation_id: "c0",
  current_step_id: "step-1",
  blocked_stage: null,
  block_code: null,
  final_report: null,
  created_at: 1,
  updated_at: 1,
  finished_at: null,
  steps: [step(1, { status: "WORKING", attempts: 1 }), step(2)],
  events: [],
  self_repair: null,
  ...over,
});

const blocked = (over: Partial<RunDetail> = {}) =>
  run({
    status: "BLOCKED",
    stage: "IDLE",
    blocked_stage: "SUPERVISOR",
    block_code: "master_block",
    error: "Il faut l’accord du propriétaire.",
    steps: [step(1, { status: "BLOCKED", attempts: 1 }), step(2)],
    ...over,
  });

const all = (blocks: readonly unknown[]) => texts(blocks as Block[]).join("\n");
const longPlan = (n: number, promptLength: number) =>
  Array.from({ length: n }, (_, i) =>
    step(i + 1, {
      title: "T".repeat(400),
      project_name: "P".repeat(200),
      prompt: "x".repeat(promptLength),
      feedback: "f".repeat(2000),
      status: "APPROVED",
      attempts: 3,
    }),
  );

describe("the run thread's root message", () => {
  it("shows the owner, the status and stage, the step at work and every step's state", () => {
    const view = runRootMessage(
      "fr",
      run({ correction_round: 1, steps: [step(1, { status: "CORRECTING", attempts: 2 }), step(2)] }),
    );
    expectWithinBlockKit(view.blocks);
    const text = all(view.blocks);
    expect(text).toContain("<@U0OWNER>");
    expect(text).toContain("en cours");
    expect(text).toContain("l’agent du projet travaille");
    expect(text).toContain("Étape 1 sur 2 : *Réduire la charge 1*");
    expect(text).toContain("tour de correction 1 sur 3");
    expect(text).toContain("✏️ 1. Réduire la charge 1");
    expect(text).toContain("▫️ 2. Réduire la charge 2");
    expect(view.blocks.some((b) => b.block_id === BLOCKS.runState)).toBe(true);
    expect(buttons(view.blocks)).toHaveLength(0);
  });

  it("a completed run says so; English works too", () => {
    const view = runRootMessage(
      "en",
      run({
        status: "COMPLETED",
        stage: "IDLE",
        current_step_id: null,
        steps: [step(1, { status: "APPROVED" })],
      }),
    );
    expect(view.text).toContain("completed");
    expect(all(view.blocks)).toContain("✅ 1. Réduire la charge 1");
    expect(all(view.blocks)).not.toContain("Step 1");
  });

  it("escapes what the owner wrote", () => {
    const view = runRootMessage(
      "fr",
      run({ steps: [step(1, { title: "<!channel> & co", project_name: "<@U1>" })] }),
    );
    const text = all(view.blocks);
    expect(text).toContain("&lt;!channel&gt; &amp; co");
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<@U1>");
  });

  it("stays within Block Kit and 12k characters with 50 long steps, counting those left out", () => {
    const view = runRootMessage("fr", run({ steps: longPlan(50, 20_000) }));
    expectWithinBlockKit(view.blocks);
    expect(JSON.stringify(view.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
    const text = all(view.blocks);
    const shown = (text.match(/✅ \d+\./g) ?? []).length;
    if (shown < 50) expect(text).toContain(`et ${50 - shown} autre`);
  });
});

describe("a master's verdict", () => {
  it("approve, correct and block each say which, about which step, with the feedback escaped", () => {
    const subject = { kind: "step" as const, order: 2, title: "Migrer", projectName: "api" };
    const [approve] = runVerdictMessages("fr", { decision: "approve", feedback: "plan ok", subject });
    expect(all(approve!.blocks)).toContain("✅ *Agent maître : approuvé* · étape 2 « Migrer » (api)");
    expect(all(approve!.blocks)).toContain("plan ok");
    const [correct] = runVerdictMessages("fr", {
      decision: "correct",
      feedback: "Ajoute <@U1> & la mesure",
      subject,
    });
    expect(all(correct!.blocks)).toContain("correction demandée");
    expect(all(correct!.blocks)).toContain("Ajoute &lt;@U1&gt; &amp; la mesure");
    expect(correct!.text).not.toContain("<@U1>");
    const [block] = runVerdictMessages("en", { decision: "block", feedback: "", subject: { kind: "plan" } });
    expect(all(block!.blocks)).toContain("⛔ *Master agent: blocked* · the plan");
    expect(all(block!.blocks)).toContain("No comment.");
    const [final] = runVerdictMessages("fr", {
      decision: "block",
      feedback: "x",
      subject: { kind: "final" },
    });
    expect(all(final!.blocks)).toContain("la synthèse finale");
    for (const m of [approve!, correct!, block!, final!]) {
      expectWithinBlockKit(m.blocks);
      expect(buttons(m.blocks)).toHaveLength(0);
      expect(m.blocks[0]!.block_id).toBe(BLOCKS.runVerdict);
    }
  });

  it("long feedback is split across messages, every character kept", () => {
    const feedback = Array.from({ length: 400 }, (_, i) => `Ligne ${i} : ${"détail ".repeat(8)}`).join("\n");
    const messages = runVerdictMessages("fr", { decision: "correct", feedback, subject: { kind: "plan" } });
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) {
      expectWithinBlockKit(m.blocks);
      expect(JSON.stringify(m.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
    }
    const joined = messages.map((m) => all(m.blocks)).join("\n");
    expect(joined).toContain("Ligne 0 :");
    expect(joined).toContain("Ligne 399 :");
    expect(joined).not.toContain("/codex run");
    expect(messages[1]!.blocks.some((b) => b.type === "context")).toBe(true); // "Suite 2 sur n"
  });

  it("absurdly long feedback is clipped with … and a note saying where the full text is", () => {
    const feedback = "mot ".repeat(30_000);
    const messages = runVerdictMessages("fr", { decision: "block", feedback, subject: { kind: "plan" } });
    expect(messages).toHaveLength(5);
    const last = messages.at(-1)!;
    const lastTexts = texts(last.blocks);
    expect(lastTexts.some((x) => x.endsWith("…"))).toBe(true);
    expect(lastTexts.at(-1)).toContain("/codex run");
    expect(lastTexts.at(-1)).toContain(String(feedback.trim().length));
    for (const m of messages) expectWithinBlockKit(m.blocks);
  });
});

describe("the blocked message", () => {
  it("says where and why, with Resume and Revise buttons carrying the run id", () => {
    const view = runBlockedMessage("fr", blockedInputOf(blocked()));
    expectWithinBlockKit(view.blocks);
    const text = all(view.blocks);
    expect(text).toContain("⛔ *Run bloqué* · étape 1 « Réduire la charge 1 » (NASflix)");
    expect(text).toContain("L’agent maître a bloqué le run.");
    expect(text).toContain("> Il faut l’accord du propriétaire.");
    const b = buttons(view.blocks);
    expect(b.map((x) => x.action_id)).toEqual([ACTIONS.runResume, ACTIONS.runRevise]);
    expect(b.map((x) => x.value)).toEqual(["run-1", "run-1"]);
    expect(view.blocks.find((x) => x.type === "actions")!.block_id).toBe(BLOCKS.runActions);
  });

  it("shows the self-repair's state and its feedback", () => {
    const r = blocked({
      self_repair: {
        id: "sr",
        status: "NEEDS_USER",
        step_id: "step-1",
        blocked_stage: "SUPERVISOR",
        block_code: "master_block",
        error: "e",
        project_id: "s",
        conversation_id: "c",
        queue_id: "q",
        feedback: "Valide le déploiement <ici>",
        prompt_addendum: "",
        created_at: 1,
        finished_at: 2,
      },
    });
    const text = all(runBlockedMessage("fr", blockedInputOf(r)).blocks);
    expect(text).toContain("l’auto-réparation a besoin de toi");
    expect(text).toContain("Valide le déploiement &lt;ici&gt;");
  });

  it("once the run moved on, the buttons are gone and it says so", () => {
    const view = runBlockedMessage("fr", { ...blockedInputOf(blocked()), runStatus: "RUNNING" });
    expect(buttons(view.blocks)).toHaveLength(0);
    expect(all(view.blocks)).toContain("Blocage levé : le run est en cours.");
  });

  it("a long reason is clipped with … and a note pointing at /codex run", () => {
    const error = "raison ".repeat(1000);
    const view = runBlockedMessage("fr", blockedInputOf(blocked({ error })));
    expectWithinBlockKit(view.blocks);
    const text = all(view.blocks);
    expect(text).toContain("…");
    expect(text).toContain("/codex run");
  });
});

describe("/codex run", () => {
  it("before any run, says how to start one", () => {
    const view = runDetailView("fr", { status: "NOT_STARTED" });
    expect(view.text).toContain("/codex run start");
    expectWithinBlockKit(view.blocks);
  });

  it("a running run lists its steps with state, risk and attempts, and has no buttons", () => {
    const view = runDetailView(
      "fr",
      run({ steps: [step(1, { status: "REVIEWING", attempts: 2, feedback: "Ajouter la mesure" }), step(2)] }),
    );
    expectWithinBlockKit(view.blocks);
    const text = all(view.blocks);
    expect(view.blocks[0]!.type).toBe("header");
    expect(text).toContain("🔎 *1. Réduire la charge 1* · NASflix · en revue");
    expect(text).toContain("risque `code`");
    expect(text).toContain("2 tentatives");
    expect(text).toContain("> Ajouter la mesure");
    expect(text).toContain("Run `run-1`");
    expect(buttons(view.blocks)).toHaveLength(0);
  });

  it("a blocked run shows why, with the buttons", () => {
    const view = runDetailView("fr", blocked());
    const text = all(view.blocks);
    expect(text).toContain("*Motif du blocage*");
    expect(text).toContain("Il faut l’accord du propriétaire.");
    expect(buttons(view.blocks).map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.runResume, "run-1"],
      [ACTIONS.runRevise, "run-1"],
    ]);
  });

  it("a completed run shows its final report, clipped with a note when long", () => {
    const short = runDetailView(
      "fr",
      run({
        status: "COMPLETED",
        stage: "IDLE",
        final_report: "Tout est **fait**.",
        steps: [step(1, { status: "APPROVED" })],
      }),
    );
    expect(all(short.blocks)).toContain("Tout est *fait*.");
    const long = runDetailView(
      "fr",
      run({
        status: "COMPLETED",
        stage: "IDLE",
        final_report: "para ".repeat(3000),
        steps: [step(1, { status: "APPROVED" })],
      }),
    );
    expectWithinBlockKit(long.blocks);
    expect(all(long.blocks)).toContain("Synthèse complète dans le fil du run (15000 caractères).");
  });

  it("stays within one message with 50 long steps and a long reason", () => {
    const view = runDetailView("fr", blocked({ steps: longPlan(50, 20_000), error: "e".repeat(8000) }));
    expectWithinBlockKit(view.blocks);
    expect(JSON.stringify(view.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
    expect(buttons(view.blocks)).toHaveLength(2);
    expect(all(view.blocks)).toMatch(/et \d+ autres/);
  });
});

describe("the final report in the thread", () => {
  it("is split across messages, nothing cut", () => {
    const report = Array.from({ length: 300 }, (_, i) => `- point ${i} ${"x".repeat(60)}`).join("\n");
    const messages = runFinalReport("fr", report);
    expect(messages.length).toBeGreaterThan(1);
    expect(all(messages[0]!.blocks)).toContain("Synthèse finale de l’agent maître");
    const joined = messages.map((m) => all(m.blocks)).join("\n");
    expect(joined).toContain("• point 0 ");
    expect(joined).toContain("• point 299 ");
    for (const m of messages) expectWithinBlockKit(m.blocks);
  });
});

describe("the plan modals", () => {
  const input = (blocks: readonly unknown[]) => (blocks as InputBlock[]).find((b) => b.type === "input")!;

  it("run start: callback, a multiline plan input, the channel in private_metadata", () => {
    const view = runStartModal("fr", { channelId: "C1" });
    expect(view.callback_id).toBe(CALLBACKS.runStart);
    expect(JSON.parse(view.private_metadata)).toEqual({ channelId: "C1" });
    const plan = input(view.blocks);
    expect(plan.block_id).toBe(BLOCKS.runPlan);
    expect(plan.element).toMatchObject({
      action_id: INPUTS.runPlan,
      multiline: true,
      max_length: MAX_PLAN_INPUT,
    });
    expect(plan.element.initial_value).toBeUndefined();
    expect(view.title.text.length).toBeLessThanOrEqual(L.MAX_MODAL_TITLE);
    expect(view.submit.text.length).toBeLessThanOrEqual(L.MAX_MODAL_BUTTON);
    expect(readRunModalMetadata(view.private_metadata)).toEqual({ channelId: "C1" });
  });

  it("revise: prefilled with the current plan's JSON, which parses back to the plan", () => {
    const view = runReviseModal("fr", { runId: "run-1", channelId: "C1", steps: [step(1), step(2)] });
    expect(view.callback_id).toBe(CALLBACKS.runRevise);
    expect(readRunModalMetadata(view.private_metadata)).toEqual({ channelId: "C1", runId: "run-1" });
    const value = input(view.blocks).element.initial_value!;
    expect(value.length).toBeLessThanOrEqual(MAX_PLAN_INPUT);
    const parsed = JSON.parse(value) as Array<Record<string, unknown>>;
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toEqual({
      id: "step-1",
      order: 1,
      phase: 1,
      phaseLabel: "Mesurer",
      target: "NASflix",
      aliases: ["NASFLIX"],
      title: "Réduire la charge 1",
      summary: "Mesurer puis corriger.",
      risk: "code",
      prompt: "Inspecter les traitements de fond.",
    });
  });

  it("revise: a plan too long for the input is left empty, with a hint and the steps that must not change", () => {
    const steps = longPlan(10, 2_000);
    expect(planJson(steps)).toBeNull();
    const view = runReviseModal("fr", { runId: "run-1", steps });
    const plan = input(view.blocks);
    expect(plan.element.initial_value).toBeUndefined();
    expect(plan.hint?.text).toContain("3000");
    expect(JSON.stringify(view.blocks)).toContain("`step-10`");
    expect(view.blocks.length).toBeLessThanOrEqual(L.MAX_SURFACE_BLOCKS);
    expect(view.private_metadata.length).toBeLessThanOrEqual(L.MAX_PRIVATE_METADATA);
  });

  it("a plan a little too long indented is prefilled compact", () => {
    const steps = [step(1, { prompt: "p".repeat(2780) })]; // 3051 indented, 2972 compact
    const json = planJson(steps)!;
    expect(json).not.toContain("\n");
    expect(json.length).toBeLessThanOrEqual(MAX_PLAN_INPUT);
  });

  it("reads the plan back, says what is wrong with bad JSON (S-LANG-08), and names the field in errors", () => {
    expect(readRunPlan({ [RUN_PLAN_INPUT.blockId]: { [RUN_PLAN_INPUT.actionId]: { value: "[1]" } } })).toBe(
      "[1]",
    );
    expect(readRunPlan({})).toBe("");
    expect(parsePlanText("fr", "[1]")).toEqual({ ok: true, plan: [1] });
    const bad = parsePlanText("fr", "[{");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^Ce n’est pas du JSON valide : /);
    // S-LANG-08: only the place of the mistake, in the person's language; none of JSON.parse's English.
    for (const [text, fr, en] of [
      ["[1,]", "Ce n’est pas du JSON valide : ] inattendu", "This is not valid JSON: unexpected ]"],
      [
        "",
        "Ce n’est pas du JSON valide : le texte s’arrête avant la fin du JSON",
        "This is not valid JSON: the text ends before the JSON does",
      ],
    ] as const) {
      expect(parsePlanText("fr", text)).toEqual({ ok: false, error: fr });
      expect(parsePlanText("en", text)).toEqual({ ok: false, error: en });
    }
    const frErrors = ["[{", "{x", "nope"].map((x) => parsePlanText("fr", x));
    for (const r of frErrors)
      expect(r.ok ? "" : r.error).not.toMatch(/Unexpected|Expected|position|JSON input/);
    expect(runPlanErrors("x".repeat(5000))[BLOCKS.runPlan]!.length).toBeLessThanOrEqual(2000);
    expect(readRunModalMetadata("not json")).toEqual({});
  });
});
