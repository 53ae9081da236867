import { describe, expect, it } from "vitest";
import { conversationRoot, type ConversationRootInput } from "../../src/views/conversation.js";
import { BLOCKS } from "../../src/views/ids.js";
import { expectWithinBlockKit, texts } from "./blockKit.js";

const base: ConversationRootInput = {
  conversationId: "c1",
  projectName: "demo",
  prompt: "fix it",
  userId: "U1",
  status: "running",
  startedAt: 1_000,
  now: 13_000,
};

const stateText = (c: ConversationRootInput, locale: "fr" | "en") => {
  const blocks = conversationRoot(locale, c).blocks.filter((b) => b.block_id === BLOCKS.conversationState);
  return texts(blocks).join("\n");
};

describe("live progress in the status message", () => {
  it("shows the elapsed time and the activity from the catalog, in each language", () => {
    const c = { ...base, progress: { kind: "command" as const, detail: "npm test", plan: null } };
    expect(stateText(c, "fr")).toBe("⚙️ En cours depuis 12 s · exécute une commande : `npm test`");
    expect(stateText(c, "en")).toBe("⚙️ Running for 12 s · running a command: `npm test`");
    const e = { ...base, progress: { kind: "editing" as const, detail: "a.ts", plan: null } };
    expect(stateText(e, "en")).toContain("editing files: `a.ts`");
    expect(stateText({ ...base, progress: { kind: "thinking", detail: null, plan: null } }, "fr")).toBe(
      "⚙️ En cours depuis 12 s · réfléchit",
    );
  });

  it("shows the plan as a checklist, clipped within Block Kit limits", () => {
    const plan = [
      { text: "Read the code", done: true },
      { text: "Fix the bug", done: false },
    ];
    const c = { ...base, progress: { kind: "planning" as const, detail: null, plan } };
    expect(stateText(c, "en")).toBe("⚙️ Running for 12 s · planning\n*Plan:*\n☑ Read the code\n☐ Fix the bug");
    const huge = Array.from({ length: 200 }, (_, i) => ({ text: `${"x".repeat(500)} ${i}`, done: false }));
    expectWithinBlockKit(conversationRoot("fr", { ...c, progress: { ...c.progress, plan: huge } }).blocks);
  });

  it("quotes the agent's latest interim message under the activity", () => {
    const c = {
      ...base,
      progress: { kind: "thinking" as const, detail: null, plan: null, text: "Looking at the tests" },
    };
    expect(stateText(c, "en")).toBe("⚙️ Running for 12 s · thinking\n> _Looking at the tests_");
  });

  it("the final state shows the duration and the tokens used", () => {
    const c = { ...base, status: "done" as const, finishedAt: 126_000, tokens: 12345 };
    expect(stateText(c, "en")).toBe("✅ Done in 2 min 5 s · 12,345 tokens");
    expect(stateText(c, "fr")).toMatch(/^✅ Terminé en 2 min 5 s · 12\s345 jetons$/u);
  });
});
