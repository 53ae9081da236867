import { describe, expect, it } from "vitest";
import { conversationRoot, type ConversationRootInput } from "../../src/views/conversation.js";

const base: ConversationRootInput = {
  conversationId: "conv-1",
  projectName: "nasflix",
  prompt: "Déploie",
  userId: "U0ALICE",
  status: "done",
  startedAt: 0,
  finishedAt: 5_000,
};

describe("conversationRoot while a decision waits", () => {
  it("says it waits for the person's answer, in their language, not done (control: done once none waits)", () => {
    const fr = JSON.stringify(conversationRoot("fr", { ...base, decisionOpen: true }));
    expect(fr).toContain("⏸ En attente de ta réponse");
    expect(fr).not.toContain("✅");
    expect(JSON.stringify(conversationRoot("en", { ...base, decisionOpen: true }))).toContain(
      "⏸ Waiting for your answer",
    );
    const done = JSON.stringify(conversationRoot("fr", { ...base, decisionOpen: false }));
    expect(done).toContain("✅ Terminé");
    expect(done).not.toContain("⏸");
  });
});
