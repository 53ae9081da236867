import { describe, expect, it } from "vitest";
import type { DecisionView } from "../../src/engine/coordination/decisions.js";
import type { IncidentView } from "../../src/engine/coordination/incidents.js";
import type { SpecialistView } from "../../src/engine/coordination/specialists.js";
import type { Block, ButtonElement } from "../../src/views/blocks.js";
import {
  DECISION_CUSTOM_ACTION,
  DECISION_CUSTOM_BLOCK,
  DECISION_OPTION_ACTION,
  SPECIALIST_ADD_INPUTS,
  decisionCustomModal,
  decisionIdOfBlock,
  decisionMessage,
  decisionOptionId,
  decisionsView,
  incidentMessage,
  incidentsView,
  notifyView,
  parseDecisionOptionValue,
  readDecisionChoices,
  readDecisionCustom,
  readSpecialistAdd,
  readSpecialistAddMetadata,
  specialistAddErrors,
  specialistAddModal,
  specialistsView,
  type CheckboxesElement,
  type InputBlock,
  type InteractiveBlock,
  type ModalView,
  type StateValues,
} from "../../src/views/coordination.js";
import { ACTIONS, BLOCKS, CALLBACKS } from "../../src/views/ids.js";
import * as L from "../../src/views/limits.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const decision = (over: Partial<DecisionView> = {}): DecisionView => ({
  id: "dec-1",
  conversation_id: "conv-1",
  queue_id: "q-1",
  user_id: "U0ALICE",
  title: "Base de données",
  question: "Quelle base pour le cache ?",
  options: [
    { id: "sqlite", label: "SQLite" },
    { id: "redis", label: "Redis" },
    { id: "none", label: "Pas de cache" },
  ],
  allow_multiple: false,
  allow_custom: false,
  status: "OPEN",
  answer: null,
  response_queue_id: null,
  created_at: 1,
  ...over,
});

const manyOptions = (n: number, labelLength = 10) =>
  Array.from({ length: n }, (_, i) => ({
    id: `opt-${i}`,
    label: `${i}:${"x".repeat(Math.max(0, labelLength - String(i).length - 1))}`,
  }));

const incident = (over: Partial<IncidentView> = {}): IncidentView => ({
  id: "inc-1",
  status: "OPEN",
  auto_repair: true,
  error: "npm test a échoué",
  error_code: "codex_failed",
  conversation_id: "conv-1",
  project_id: "p-1",
  project_name: "nasflix",
  repair_project_name: null,
  repair_conversation_id: null,
  resolution: null,
  created_at: 1,
  ...over,
});

const specialist = (over: Partial<SpecialistView> = {}): SpecialistView => ({
  id: "spec-1",
  name: "Designer",
  description: "Conçoit des interfaces web sobres et accessibles.",
  capabilities: ["design.interface", "design.ux"],
  summary: null,
  status: "ACTIVE",
  error: "",
  owner_id: "U0ALICE",
  project_id: "p-9",
  full_access: false,
  workspace: "/data/specialists/designer",
  bootstrap_conversation_id: null,
  bootstrap_queue_id: null,
  ...over,
});

const isCheckboxes = (e: ButtonElement | CheckboxesElement): e is CheckboxesElement =>
  e.type === "checkboxes";
const actionBlocks = (blocks: InteractiveBlock[]) => blocks.filter((b) => b.type === "actions");
const checkboxes = (blocks: InteractiveBlock[]): CheckboxesElement[] =>
  actionBlocks(blocks).flatMap((b) => b.elements.filter(isCheckboxes));
const allButtons = (blocks: InteractiveBlock[]): ButtonElement[] =>
  buttons(
    blocks.filter(
      (b): b is Block => b.type !== "input" && !(b.type === "actions" && b.elements.some(isCheckboxes)),
    ),
  ).concat(
    actionBlocks(blocks).flatMap((b) =>
      b.elements.some(isCheckboxes) ? b.elements.filter((e): e is ButtonElement => e.type === "button") : [],
    ),
  );
const allTexts = (blocks: InteractiveBlock[]): string[] =>
  texts(blocks.filter((b): b is Block => b.type !== "input" && b.type !== "actions"));

/** Block Kit limits for blocks that may hold checkboxes and inputs, plus the ~12k characters guidance. */
function expectWithinLimits(blocks: InteractiveBlock[], maxBlocks: number = L.MAX_MESSAGE_BLOCKS): void {
  expect(blocks.length).toBeLessThanOrEqual(maxBlocks);
  const ids = blocks.flatMap((b) => (b.block_id === undefined ? [] : [b.block_id]));
  expect(new Set(ids).size).toBe(ids.length);
  for (const block of blocks) {
    if (block.type === "actions") {
      expect(block.elements.length).toBeGreaterThan(0);
      expect(block.elements.length).toBeLessThanOrEqual(L.MAX_ACTIONS_ELEMENTS);
      const actionIds = block.elements.map((e) => e.action_id);
      expect(new Set(actionIds).size).toBe(actionIds.length);
      for (const e of block.elements.filter(isCheckboxes)) {
        expect(e.options.length).toBeGreaterThan(0);
        expect(e.options.length).toBeLessThanOrEqual(10);
        for (const o of e.options) {
          expect(o.text.text.length).toBeLessThanOrEqual(L.MAX_OPTION_TEXT);
          expect(o.value.length).toBeLessThanOrEqual(L.MAX_OPTION_VALUE);
        }
      }
    }
    if (block.type === "input") {
      expect(block.block_id.length).toBeLessThanOrEqual(L.MAX_BLOCK_ID);
      expect(block.label.text.length).toBeLessThanOrEqual(2000);
      expect(block.hint?.text.length ?? 0).toBeLessThanOrEqual(2000);
      expect(block.element.placeholder?.text.length ?? 0).toBeLessThanOrEqual(150);
    }
  }
  const plainBlocks = blocks.map(
    (b): Block =>
      b.type === "input" || (b.type === "actions" && b.elements.some(isCheckboxes))
        ? { type: "divider" }
        : (b as Block),
  );
  expectWithinBlockKit(plainBlocks, maxBlocks);
  for (const b of allButtons(blocks)) expect(b.text.text.length).toBeLessThanOrEqual(L.MAX_BUTTON_TEXT);
  if (maxBlocks === L.MAX_MESSAGE_BLOCKS)
    expect(JSON.stringify(blocks).length).toBeLessThanOrEqual(L.MAX_MESSAGE_CHARS);
}

function expectModalWithinLimits(view: ModalView): void {
  expect(view.type).toBe("modal");
  expect(view.title.text.length).toBeLessThanOrEqual(L.MAX_MODAL_TITLE);
  expect(view.submit.text.length).toBeLessThanOrEqual(L.MAX_MODAL_BUTTON);
  expect(view.close.text.length).toBeLessThanOrEqual(L.MAX_MODAL_BUTTON);
  expect(view.private_metadata.length).toBeLessThanOrEqual(L.MAX_PRIVATE_METADATA);
  expectWithinLimits(view.blocks, L.MAX_SURFACE_BLOCKS);
}

const inputs = (view: ModalView): InputBlock[] =>
  view.blocks.filter((b): b is InputBlock => b.type === "input");

describe("decisionMessage", () => {
  it("offers one decision.option button per option, valued with the decision and option ids", () => {
    const view = decisionMessage("fr", decision());
    const all = buttons(view.blocks as Block[]);
    expect(all.map((b) => b.action_id)).toEqual([
      "decision.option.0",
      "decision.option.1",
      "decision.option.2",
    ]);
    for (const b of all) expect(b.action_id).toMatch(DECISION_OPTION_ACTION);
    expect(all.map((b) => b.value)).toEqual(["dec-1|sqlite", "dec-1|redis", "dec-1|none"]);
    expect(all.map((b) => b.text.text)).toEqual(["SQLite", "Redis", "Pas de cache"]);
    expect(checkboxes(view.blocks)).toEqual([]);
    for (const block of actionBlocks(view.blocks))
      expect(decisionIdOfBlock(block.block_id ?? "")).toBe("dec-1");
    expect(allTexts(view.blocks).join("\n")).toContain("*Base de données*\nQuelle base pour le cache ?");
    expect(view.text).toContain("Base de données");
    expectWithinLimits(view.blocks);
  });

  it("adds a decision.custom button carrying the decision id when a free answer is allowed", () => {
    const view = decisionMessage("en", decision({ allow_custom: true }));
    const custom = allButtons(view.blocks).filter((b) => b.action_id === ACTIONS.decisionCustom);
    expect(custom).toHaveLength(1);
    expect(custom[0]?.value).toBe("dec-1");
    expect(allButtons(view.blocks).some((b) => b.action_id === ACTIONS.decisionSubmit)).toBe(false);
    expect(custom[0]?.action_id).not.toMatch(DECISION_OPTION_ACTION);
    expect(view.blocks.some((b) => b.block_id === "decision.actions.dec-1")).toBe(true);
  });

  it("uses checkboxes valued with the option ids and a submit button when several options may be chosen", () => {
    const view = decisionMessage("fr", decision({ allow_multiple: true, allow_custom: true }));
    const [boxes, ...others] = checkboxes(view.blocks);
    expect(others).toEqual([]);
    expect(boxes?.action_id).toBe(ACTIONS.decisionOption);
    expect(boxes?.action_id).toMatch(DECISION_OPTION_ACTION);
    expect(boxes?.options.map((o) => o.value)).toEqual(["sqlite", "redis", "none"]);
    const all = allButtons(view.blocks);
    expect(all.map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.decisionSubmit, "dec-1"],
      [ACTIONS.decisionCustom, "dec-1"],
    ]);
    expect(allTexts(view.blocks).join("\n")).toContain("Coche une ou plusieurs options");
    expectWithinLimits(view.blocks);
  });

  it("splits 25 checkbox options into blocks of ten and reads the ticked ones back", () => {
    const d = decision({ allow_multiple: true, options: manyOptions(25) });
    const view = decisionMessage("fr", d);
    const blocks = actionBlocks(view.blocks).filter((b) => b.elements.some(isCheckboxes));
    expect(blocks.map((b) => (b.elements[0] as CheckboxesElement).options.length)).toEqual([10, 10, 5]);
    for (const b of blocks) expect(decisionIdOfBlock(b.block_id ?? "")).toBe("dec-1");
    const values: StateValues = {};
    blocks.forEach((b, n) => {
      const picked = n === 0 ? ["opt-3"] : n === 2 ? ["opt-24", "opt-20"] : [];
      values[b.block_id ?? ""] = {
        [ACTIONS.decisionOption]: { selected_options: picked.map((value) => ({ value })) },
      };
    });
    values["decision.choices.0.other"] = {
      [ACTIONS.decisionOption]: { selected_options: [{ value: "opt-1" }] },
    };
    expect(readDecisionChoices(d, values)).toEqual(["opt-3", "opt-24", "opt-20"]);
    expect(readDecisionChoices(d, {})).toEqual([]);
    expectWithinLimits(view.blocks);
  });

  it("puts 25 single-choice buttons in one actions block", () => {
    const view = decisionMessage("en", decision({ options: manyOptions(25) }));
    const blocks = actionBlocks(view.blocks);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.elements).toHaveLength(25);
  });

  it("stays within Block Kit limits with 25 options of 200-character labels and lists the labels in full", () => {
    for (const allow_multiple of [false, true]) {
      const d = decision({
        allow_multiple,
        allow_custom: true,
        title: "T".repeat(500),
        question: "Q ".repeat(3000),
        options: manyOptions(25, 200),
      });
      const view = decisionMessage("fr", d);
      expectWithinLimits(view.blocks);
      const labels = allow_multiple
        ? checkboxes(view.blocks).flatMap((c) => c.options.map((o) => o.text.text))
        : buttons(view.blocks as Block[])
            .filter((b) => DECISION_OPTION_ACTION.test(b.action_id))
            .map((b) => b.text.text);
      expect(labels).toHaveLength(25);
      expect(labels[0]).toMatch(/^1\. 0:x+…$/);
      const list = allTexts(view.blocks).find((t) => t.startsWith("1. "));
      expect(list?.split("\n")).toHaveLength(25);
      expect(list?.split("\n")[0]?.length).toBeGreaterThan(L.MAX_BUTTON_TEXT);
      expect(view.text.length).toBeLessThanOrEqual(200);
    }
  });

  it("shows the answer and who gave it once answered, with nothing left to click", () => {
    for (const flags of [{}, { allow_multiple: true, allow_custom: true }]) {
      const d = decision({
        ...flags,
        status: "ANSWERED",
        answer: { option_ids: ["redis", "none"], custom: "mais garde un TTL court" },
      });
      const view = decisionMessage("fr", d, { answeredBy: "U0BOB" });
      expect(view.blocks.some((b) => b.type === "actions")).toBe(false);
      expect(allButtons(view.blocks)).toEqual([]);
      const answer = view.blocks.find((b) => b.block_id === "decision.answer.dec-1");
      expect(answer && "text" in answer ? answer.text.text : "").toBe(
        "✅ <@U0BOB> a répondu : *Redis*, *Pas de cache* — « mais garde un TTL court »",
      );
      expectWithinLimits(view.blocks);
    }
    const anonymous = decisionMessage(
      "en",
      decision({ status: "ANSWERED", answer: { option_ids: [], custom: "Postgres" } }),
    );
    expect(allTexts(anonymous.blocks)).toContain("✅ Answer: « Postgres »");
  });

  it("says a cancelled decision needs no answer and offers no button", () => {
    const view = decisionMessage("en", decision({ status: "CANCELLED", allow_custom: true }));
    expect(allButtons(view.blocks)).toEqual([]);
    expect(allTexts(view.blocks).join("\n")).toContain("Decision cancelled");
  });

  it("names the project it was asked in", () => {
    expect(
      allTexts(decisionMessage("fr", decision(), { projectName: "nasflix" }).blocks).join("\n"),
    ).toContain("Projet *nasflix*");
  });

  it("escapes what the agent and the user wrote", () => {
    const d = decision({
      title: "<!channel> & co",
      question: "<!here> ?",
      options: [{ id: "a", label: "<!everyone>" }],
      allow_custom: true,
    });
    const open = decisionMessage("fr", d, { projectName: "<@U0EVE>" });
    const answered = decisionMessage(
      "fr",
      { ...d, status: "ANSWERED", answer: { option_ids: ["a"], custom: "<!subteam^S1>" } },
      { answeredBy: "<!channel>" },
    );
    for (const view of [open, answered]) {
      const all = [...allTexts(view.blocks), view.text].join("\n");
      expect(all).not.toMatch(/<[!@#]/);
      expect(all).toContain("&lt;!channel&gt; &amp; co");
    }
    expect(allTexts(answered.blocks).join("\n")).toContain("« &lt;!subteam^S1&gt; »");
  });

  it("names an option by a short token when its id is too long for Slack, and resolves it back", () => {
    const long = "z".repeat(300);
    const d = decision({
      options: [
        { id: long, label: "Long" },
        { id: "#0", label: "Dièse" },
      ],
    });
    const values = buttons(decisionMessage("fr", d).blocks as Block[]).map((b) => b.value ?? "");
    expect(values[1]).toBe("dec-1|#0");
    const parsed = parseDecisionOptionValue(values[0] ?? "");
    expect(parsed?.decisionId).toBe("dec-1");
    expect(parsed?.token).not.toBe("#0");
    expect(decisionOptionId(d, parsed?.token ?? "")).toBe(long);
    expect(decisionOptionId(d, "#0")).toBe("#0");
    expect(decisionOptionId(d, "nope")).toBeNull();
    expect(parseDecisionOptionValue("dec-1|a|b")).toEqual({ decisionId: "dec-1", token: "a|b" });
    expect(parseDecisionOptionValue("garbage")).toBeNull();
  });
});

describe("decisionCustomModal", () => {
  it("asks for a free answer in a modal that carries the decision id", () => {
    const view = decisionCustomModal("fr", decision({ allow_custom: true, question: "<!here> ?" }));
    expect(view.callback_id).toBe(CALLBACKS.decisionCustom);
    expect(view.private_metadata).toBe("dec-1");
    const [input, ...others] = inputs(view);
    expect(others).toEqual([]);
    expect(input?.block_id).toBe(DECISION_CUSTOM_BLOCK);
    expect(input?.element.action_id).toBe(DECISION_CUSTOM_ACTION);
    expect(input?.element.multiline).toBe(true);
    expect(allTexts(view.blocks).join("\n")).toContain("&lt;!here&gt; ?");
    expectModalWithinLimits(view);
    expectModalWithinLimits(
      decisionCustomModal("en", decision({ title: "t".repeat(5000), question: "q".repeat(5000) })),
    );
  });

  it("reads the typed answer back, trimmed", () => {
    expect(
      readDecisionCustom({
        [DECISION_CUSTOM_BLOCK]: { [DECISION_CUSTOM_ACTION]: { value: "  Postgres, en fait \n" } },
      }),
    ).toBe("Postgres, en fait");
    expect(
      readDecisionCustom({ [DECISION_CUSTOM_BLOCK]: { [DECISION_CUSTOM_ACTION]: { value: null } } }),
    ).toBe("");
    expect(readDecisionCustom({})).toBe("");
  });
});

describe("decisionsView", () => {
  it("says when no decision is waiting", () => {
    const view = decisionsView("fr", []);
    expect(allTexts(view.blocks)).toContain("Aucune décision n’attend ta réponse.");
    expect(allButtons(view.blocks)).toEqual([]);
  });

  it("lists each open decision with its buttons", () => {
    const view = decisionsView("en", [
      decision(),
      decision({ id: "dec-2", allow_multiple: true, allow_custom: true }),
    ]);
    expect(allTexts(view.blocks)[0]).toBe("Pending decisions (2)");
    const values = allButtons(view.blocks).map((b) => `${b.action_id} ${b.value}`);
    expect(values).toEqual([
      "decision.option.0 dec-1|sqlite",
      "decision.option.1 dec-1|redis",
      "decision.option.2 dec-1|none",
      "decision.submit dec-2",
      "decision.custom dec-2",
    ]);
    expect(checkboxes(view.blocks)).toHaveLength(1);
    expectWithinLimits(view.blocks);
  });

  it("stays within 50 blocks and 12k characters for 100 decisions and counts the ones left out", () => {
    for (const options of [manyOptions(3), manyOptions(25, 200)]) {
      const decisions = Array.from({ length: 100 }, (_, i) =>
        decision({ id: `dec-${i}`, question: "q".repeat(3000), options, allow_custom: true }),
      );
      const view = decisionsView("fr", decisions);
      expectWithinLimits(view.blocks);
      const shown = view.blocks.filter((b) => b.block_id?.startsWith(`${BLOCKS.decisionText}.`)).length;
      expect(shown).toBeGreaterThan(0);
      expect(allTexts(view.blocks).at(-1)).toBe(`… et ${100 - shown} autres`);
    }
  });
});

describe("incidentMessage", () => {
  it("marks each status with its emoji and offers Retry only when the repair failed", () => {
    const expected = { OPEN: "🚨", REPAIRING: "🔧", RESOLVED: "✅", FAILED: "❌" } as const;
    for (const [status, emoji] of Object.entries(expected) as Array<[IncidentView["status"], string]>) {
      const view = incidentMessage("fr", incident({ status }));
      expect(allTexts(view.blocks)[0]).toMatch(new RegExp(`^${emoji} Incident dans \\*nasflix\\* · `));
      expect(view.text.startsWith(emoji)).toBe(true);
      const all = buttons(view.blocks);
      if (status === "FAILED") {
        expect(all.map((b) => [b.action_id, b.value])).toEqual([[ACTIONS.incidentRetry, "inc-1"]]);
        expect(view.blocks.find((b) => b.type === "actions")?.block_id).toBe("incident.actions.inc-1");
      } else expect(all).toEqual([]);
      expectWithinBlockKit(view.blocks);
    }
  });

  it("shows the error, the repair project and, once closed, the resolution", () => {
    const repairing = texts(
      incidentMessage(
        "fr",
        incident({ status: "REPAIRING", repair_project_name: "CodexPi (Self)", resolution: "pas encore" }),
      ).blocks,
    ).join("\n");
    expect(repairing).toContain("> npm test a échoué");
    expect(repairing).toContain("réparation confiée à *CodexPi (Self)*");
    expect(repairing).toContain("code `codex_failed`");
    expect(repairing).not.toContain("pas encore");
    const resolved = texts(
      incidentMessage("en", incident({ status: "RESOLVED", resolution: "Fixed the test runner." })).blocks,
    ).join("\n");
    expect(resolved).toContain("*Resolution*: Fixed the test runner.");
    expect(texts(incidentMessage("en", incident({ auto_repair: false })).blocks).join("\n")).toContain(
      "no automatic repair",
    );
  });

  it("clips and escapes a 5000-character error", () => {
    const view = incidentMessage(
      "fr",
      incident({
        status: "FAILED",
        error: `<!channel> ${"e".repeat(5000)}`,
        resolution: "r".repeat(5000),
        project_name: "<!here>",
      }),
    );
    expectWithinBlockKit(view.blocks);
    const all = [...texts(view.blocks), view.text].join("\n");
    expect(all).not.toMatch(/<!/);
    expect(all).toContain("&lt;!channel&gt;");
    expect(all).toContain("…");
  });
});

describe("incidentsView", () => {
  it("says when there is no incident", () => {
    expect(texts(incidentsView("en", []).blocks)).toContain("No incident. All good.");
  });

  it("lists incidents with Retry on the failed ones only", () => {
    const view = incidentsView("fr", [incident(), incident({ id: "inc-2", status: "FAILED" })]);
    expect(buttons(view.blocks).map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.incidentRetry, "inc-2"],
    ]);
    expect(texts(view.blocks)[0]).toBe("Incidents (2)");
    expectWithinBlockKit(view.blocks);
  });

  it("stays within limits for 100 incidents with 5000-character errors", () => {
    const view = incidentsView(
      "fr",
      Array.from({ length: 100 }, (_, i) =>
        incident({ id: `inc-${i}`, status: "FAILED", error: "e".repeat(5000), resolution: "r".repeat(5000) }),
      ),
    );
    expectWithinBlockKit(view.blocks);
    expect(JSON.stringify(view.blocks).length).toBeLessThanOrEqual(L.MAX_MESSAGE_CHARS);
    const shown = buttons(view.blocks).length;
    expect(texts(view.blocks).at(-1)).toBe(`… et ${100 - shown} autres`);
  });
});

describe("specialistsView", () => {
  it("shows each specialist's name, status, capabilities and what it does", () => {
    const all = texts(
      specialistsView("fr", [
        specialist({ summary: "Maquettes et revues d’ergonomie." }),
        specialist({ id: "spec-2", name: "Relecteur", status: "BUILDING", capabilities: [], owner_id: null }),
      ]).blocks,
    ).join("\n");
    expect(all).toContain("🧩 *Designer* · actif");
    expect(all).toContain("`design.interface` `design.ux`");
    expect(all).toContain("_Maquettes et revues d’ergonomie._");
    expect(all).toContain("*Relecteur* · en préparation · partagé");
    expect(all).toContain("aucune compétence déclarée");
    expect(all).toContain("Conçoit des interfaces web");
  });

  it("shows the error of a failed specialist with a Rebuild button carrying its id", () => {
    const view = specialistsView("en", [
      specialist(),
      specialist({ id: "spec-2", status: "FAILED", error: "no READY marker" }),
    ]);
    expect(buttons(view.blocks).map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.specialistRebuild, "spec-2"],
    ]);
    expect(texts(view.blocks).join("\n")).toContain("*Error*: no READY marker");
  });

  it("says how to create one when there is none", () => {
    expect(texts(specialistsView("fr", []).blocks).join("\n")).toContain("`/codex specialist add`");
  });

  it("stays within limits for 100 specialists with long texts, escaping them", () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      specialist({
        id: `spec-${i}`,
        name: `<!channel> ${i}`,
        status: "FAILED",
        description: "d".repeat(5000),
        error: "e".repeat(5000),
        capabilities: Array.from({ length: 40 }, (_, c) => `cap.${c}`),
      }),
    );
    const view = specialistsView("en", many);
    expectWithinBlockKit(view.blocks);
    expect(JSON.stringify(view.blocks).length).toBeLessThanOrEqual(L.MAX_MESSAGE_CHARS);
    expect(texts(view.blocks).join("\n")).not.toMatch(/<!/);
    expect(texts(view.blocks).at(-1)).toMatch(/^… and \d+ more$/);
  });
});

describe("specialistAddModal", () => {
  it("is the specialist.add form with name, description and capabilities inputs", () => {
    for (const locale of ["fr", "en"] as const) {
      const view = specialistAddModal(locale, { channelId: "C0CHAN" });
      expect(view.callback_id).toBe(CALLBACKS.specialistAdd);
      expect(JSON.parse(view.private_metadata)).toEqual({ channelId: "C0CHAN" });
      const [name, description, capabilities] = inputs(view);
      expect(name?.block_id).toBe(SPECIALIST_ADD_INPUTS.name.blockId);
      expect(name?.element.action_id).toBe(SPECIALIST_ADD_INPUTS.name.actionId);
      expect(name?.element.max_length).toBe(60);
      expect(description?.block_id).toBe(SPECIALIST_ADD_INPUTS.description.blockId);
      expect(description?.element.multiline).toBe(true);
      expect(description?.hint?.text).toMatch(/phrase|sentence/);
      expect(capabilities?.block_id).toBe(SPECIALIST_ADD_INPUTS.capabilities.blockId);
      expect(capabilities?.element.placeholder?.text).toBe("design.interface, design.ux");
      expectModalWithinLimits(view);
    }
    expect(JSON.parse(specialistAddModal("fr").private_metadata)).toEqual({});
  });

  it("reads its metadata back, ignoring anything malformed", () => {
    expect(
      readSpecialistAddMetadata(specialistAddModal("fr", { channelId: "C1", shared: true }).private_metadata),
    ).toEqual({ channelId: "C1", shared: true });
    expect(readSpecialistAddMetadata("not json")).toEqual({});
    expect(readSpecialistAddMetadata('{"channelId":42}')).toEqual({});
  });

  it("reads the form back with capabilities split on commas and whitespace", () => {
    const values: StateValues = {
      [SPECIALIST_ADD_INPUTS.name.blockId]: {
        [SPECIALIST_ADD_INPUTS.name.actionId]: { value: "  Designer " },
      },
      [SPECIALIST_ADD_INPUTS.description.blockId]: {
        [SPECIALIST_ADD_INPUTS.description.actionId]: { value: "Conçoit des interfaces sobres.\n" },
      },
      [SPECIALIST_ADD_INPUTS.capabilities.blockId]: {
        [SPECIALIST_ADD_INPUTS.capabilities.actionId]: {
          value: " design.interface,design.ux ,, \n code.review ",
        },
      },
    };
    expect(readSpecialistAdd(values)).toEqual({
      name: "Designer",
      description: "Conçoit des interfaces sobres.",
      capabilities: ["design.interface", "design.ux", "code.review"],
    });
    expect(readSpecialistAdd({})).toEqual({ name: "", description: "", capabilities: [] });
  });

  it("maps the engine's invalid fields to errors under the matching inputs", () => {
    const errors = specialistAddErrors("fr", {
      fields: ["name", "capabilities.0", "capabilities.1", "shared"],
    });
    expect(Object.keys(errors).sort()).toEqual(
      [SPECIALIST_ADD_INPUTS.capabilities.blockId, SPECIALIST_ADD_INPUTS.name.blockId].sort(),
    );
    expect(errors[SPECIALIST_ADD_INPUTS.capabilities.blockId]).toContain("design.interface");
    expect(
      specialistAddErrors("en", { fields: ["description"] })[SPECIALIST_ADD_INPUTS.description.blockId],
    ).toContain("sentence");
    expect(specialistAddErrors("en", { fields: ["name"] }, "Taken")).toEqual({
      [SPECIALIST_ADD_INPUTS.name.blockId]: "Taken",
    });
  });
});

describe("notifyView", () => {
  it("shows each preference on or off and how to change it", () => {
    const all = texts(
      notifyView("fr", { task_completion: true, decisions: false, incidents: true }).blocks,
    ).join("\n");
    expect(all).toContain("🔔 *Fin de tes tâches* (`task_completion`) : activé");
    expect(all).toContain("🔕 *Décisions à prendre* (`decisions`) : désactivé");
    expect(all).toContain("🔔 *Incidents* (`incidents`) : activé");
    expect(all).toContain("`/codex notify decisions off`");
    const en = notifyView("en", { task_completion: false, decisions: true, incidents: false });
    expect(texts(en.blocks).join("\n")).toContain("🔕 *Your finished tasks* (`task_completion`): off");
    expectWithinBlockKit(en.blocks);
  });
});
