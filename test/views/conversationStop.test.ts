import { describe, expect, it } from "vitest";
import { conversationRoot, type ConversationRootInput } from "../../src/views/conversation.js";
import { ACTIONS } from "../../src/views/ids.js";
import { buttons } from "./blockKit.js";

const base: ConversationRootInput = {
  conversationId: "conv-1",
  projectName: "nasflix",
  prompt: "Déploie",
  userId: "U0ALICE",
  status: "done",
};

describe("conversationRoot's Stop and decisions", () => {
  it("offers Stop on a finished turn while a decision it asked waits, and not once none does (control)", () => {
    const waiting = buttons(conversationRoot("fr", { ...base, decisionOpen: true }).blocks);
    expect(waiting.map((b) => [b.action_id, b.value])).toEqual([[ACTIONS.conversationStop, "conv-1"]]);
    expect(buttons(conversationRoot("fr", { ...base, decisionOpen: false }).blocks)).toEqual([]);
    expect(buttons(conversationRoot("fr", base).blocks)).toEqual([]);
  });
});
