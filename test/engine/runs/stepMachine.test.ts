import { describe, expect, it } from "vitest";
import {
  canRun,
  canSelfRepair,
  canStep,
  runActions,
  SELF_REPAIR_TRANSITIONS,
  selfRepairActions,
  STEP_ACTIONS,
  STEP_TRANSITIONS,
} from "../../../src/engine/runs/machine.js";
import { guardFor } from "../../../src/engine/stateMachine.js";

describe("run step and self-repair machines (pure)", () => {
  it("a step not yet approved may be put where a block or a resume says; an approved step never moves", () => {
    const open = ["PENDING", "WORKING", "REVIEWING", "CORRECTING", "BLOCKED"];
    expect(STEP_TRANSITIONS).toEqual({
      PENDING: open,
      WORKING: open,
      REVIEWING: [...open.slice(0, 4), "APPROVED", "BLOCKED"],
      CORRECTING: open,
      APPROVED: [],
      BLOCKED: open,
    });
    expect(canStep("REVIEWING", "review_verdict")).toBe(true);
    expect(canStep("WORKING", "review_verdict")).toBe(false);
    expect(canStep("APPROVED", "block")).toBe(false);
    // Every call site's from-list is legal for the moves it makes.
    expect(guardFor("step", STEP_TRANSITIONS, "REVIEWING", STEP_ACTIONS.submit_for_review)).toEqual([
      "WORKING",
      "CORRECTING",
    ]);
    expect(guardFor("step", STEP_TRANSITIONS, "APPROVED", STEP_ACTIONS.review_verdict)).toEqual([
      "REVIEWING",
    ]);
    expect(guardFor("step", STEP_TRANSITIONS, "WORKING", STEP_ACTIONS.start)).toEqual(["PENDING", "BLOCKED"]);
    expect(guardFor("step", STEP_TRANSITIONS, "BLOCKED", STEP_ACTIONS.block)).toHaveLength(5);
    expect(() => guardFor("step", STEP_TRANSITIONS, "APPROVED", ["WORKING"])).toThrow("not a transition");
  });

  it("a self-repair settles once; the owner supersedes one still running or waiting for them", () => {
    expect(SELF_REPAIR_TRANSITIONS).toEqual({
      RUNNING: ["SUCCEEDED", "NEEDS_USER", "SUPERSEDED", "FAILED"],
      SUCCEEDED: [],
      NEEDS_USER: ["SUPERSEDED"],
      SUPERSEDED: [],
      FAILED: [],
    });
    expect(selfRepairActions("RUNNING")).toEqual(["settle", "supersede"]);
    expect(selfRepairActions("NEEDS_USER")).toEqual(["supersede"]);
    expect(canSelfRepair("SUCCEEDED", "supersede")).toBe(false);
    expect(() => guardFor("self-repair", SELF_REPAIR_TRANSITIONS, "SUCCEEDED", ["NEEDS_USER"])).toThrow(
      "not a transition",
    );
  });

  it("a blocked run is resumed or revised, an active one cancelled, only a running one blocked", () => {
    expect(runActions("BLOCKED")).toEqual(["resume", "revise", "cancel"]);
    expect(runActions("RUNNING")).toEqual(["cancel", "block"]);
    expect(runActions("COMPLETED")).toEqual([]);
    expect(canRun("CANCELLED", "resume")).toBe(false);
  });
});
