import { describe, expect, it } from "vitest";
import { ACTIONS, BLOCKS, CALLBACKS } from "../../src/views/ids.js";
import { MAX_ACTION_ID, MAX_BLOCK_ID, MAX_CALLBACK_ID } from "../../src/views/limits.js";

describe("ids", () => {
  it("action ids are exactly the ones DESIGN.md lists", () => {
    expect(Object.values(ACTIONS).sort()).toEqual(
      [
        "decision.option",
        "decision.submit",
        "decision.custom",
        "conversation.stop",
        "incident.retry",
        "specialist.rebuild",
        "run.resume",
        "run.revise",
        "orch.draft.approve",
        "orch.draft.reject",
        "orch.verify",
        "orch.approve",
        "orch.corrections",
        "orch.merge.confirm",
        "orch.merge.cancel",
        // An approval card's buttons (issue 10; DESIGN's list is to gain them at merge).
        "approval.approve",
        "approval.approve_session",
        "approval.deny",
        "approval.stop",
        // A lane's card (issue 18; DESIGN's list is to gain them at merge); each value is the conversation's id.
        "lane.merge",
        "lane.push",
        "lane.pull_request",
        "lane.discard",
        "lane.ask_merge",
        // Project memory (issue 34): a proposal's card and the notes' list; each value is the note's id.
        "memory.keep",
        "memory.keep_here",
        "memory.edit",
        "memory.discard",
        "memory.forget",
        // The prefix of "which project?" buttons (`ask.choose.<n>`): Slack wants unique ids in a block.
        "ask.choose",
      ].sort(),
    );
  });

  it("modal callback ids cover the nine modals", () => {
    expect(Object.values(CALLBACKS).sort()).toEqual([
      "decision.custom",
      "memory.edit",
      "orch.corrections",
      "orch.create",
      "orch.reject",
      "policy.edit",
      "run.revise",
      "run.start",
      "specialist.add",
    ]);
  });

  it("ids are unique and within Slack's limits", () => {
    for (const [ids, max] of [
      [Object.values(ACTIONS), MAX_ACTION_ID],
      [Object.values(BLOCKS), MAX_BLOCK_ID],
      [Object.values(CALLBACKS), MAX_CALLBACK_ID],
    ] as const) {
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id.length).toBeLessThanOrEqual(max);
    }
  });
});
