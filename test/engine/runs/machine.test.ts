import { describe, expect, it } from "vitest";
import {
  decide,
  inferBlockedStage,
  MAX_CORRECTION_ROUNDS,
  resumePoint,
  RUN_TRANSITIONS,
  canMove,
} from "../../../src/engine/runs/machine.js";
import { checkRebase, parsePlan, resolveTargets } from "../../../src/engine/runs/plan.js";
import { planStep } from "./runEnv.js";

const ctx = { correctionRound: 0, reviewRestarts: 0, hasNextStep: false };
const done = (
  answer: string,
  verdict: { decision: "approve" | "correct" | "block"; feedback: string } | null,
) => ({ state: "done" as const, answer, verdict });

describe("run state machine (pure)", () => {
  it("decides each stage's transition from the item's outcome and the master's verdict", () => {
    expect(decide({ ...ctx, stage: "PLAN_REVIEW" }, { state: "pending" })).toEqual({ kind: "wait" });
    expect(
      decide({ ...ctx, stage: "PLAN_REVIEW" }, done("", { decision: "approve", feedback: "ok" })).kind,
    ).toBe("start_next_step");
    expect(
      decide({ ...ctx, stage: "PLAN_REVIEW" }, done("", { decision: "correct", feedback: "x" })),
    ).toMatchObject({ kind: "block", code: "master_block" });
    expect(decide({ ...ctx, stage: "AGENT" }, done("fait", null)).kind).toBe("request_review");
    expect(decide({ ...ctx, stage: "SUPERVISOR" }, done("", null))).toMatchObject({
      kind: "block",
      code: "no_verdict",
    });
    expect(
      decide(
        { ...ctx, stage: "SUPERVISOR", hasNextStep: true },
        done("", { decision: "approve", feedback: "" }),
      ).kind,
    ).toBe("start_next_step");
    expect(
      decide({ ...ctx, stage: "SUPERVISOR" }, done("", { decision: "approve", feedback: "" })).kind,
    ).toBe("final_review");
    expect(
      decide(
        { ...ctx, stage: "SUPERVISOR", correctionRound: MAX_CORRECTION_ROUNDS - 1 },
        done("", { decision: "correct", feedback: "" }),
      ).kind,
    ).toBe("request_correction");
    expect(
      decide(
        { ...ctx, stage: "SUPERVISOR", correctionRound: MAX_CORRECTION_ROUNDS },
        done("", { decision: "correct", feedback: "" }),
      ),
    ).toMatchObject({ kind: "block", code: "corrections_exhausted" });
    expect(decide({ ...ctx, stage: "FINAL_REVIEW" }, done("Synthèse", null))).toEqual({
      kind: "complete",
      report: "Synthèse",
    });
    expect(
      decide({ ...ctx, stage: "SUPERVISOR" }, { state: "failed", interrupted: true, error: "x" }).kind,
    ).toBe("restart_review");
    expect(
      decide({ ...ctx, stage: "AGENT" }, { state: "failed", interrupted: true, error: "x" }),
    ).toMatchObject({ kind: "block", code: "interrupted" });
    expect(
      decide(
        { ...ctx, stage: "SUPERVISOR", reviewRestarts: 2 },
        { state: "failed", interrupted: true, error: "x" },
      ),
    ).toMatchObject({ kind: "block", code: "interrupted" });
    expect(
      decide({ ...ctx, stage: "SUPERVISOR" }, { state: "failed", interrupted: false, error: "boom" }),
    ).toMatchObject({ kind: "block", code: "item_failed", error: "boom" });
  });

  it("resumes at the agent after a master's verdict, at the interrupted stage otherwise, on the same item after a crash", () => {
    expect(resumePoint("SUPERVISOR", "master_block")).toEqual({ stage: "AGENT", mode: "restart" });
    expect(resumePoint("SUPERVISOR", "interrupted")).toEqual({ stage: "SUPERVISOR", mode: "restart" });
    expect(resumePoint("PLAN_REVIEW", "master_block")).toEqual({ stage: "PLAN_REVIEW", mode: "restart" });
    expect(resumePoint("AGENT", "crash")).toEqual({ stage: "AGENT", mode: "reprocess" });
    expect(canMove("BLOCKED", "RUNNING")).toBe(true);
    expect(canMove("COMPLETED", "RUNNING")).toBe(false);
    expect(Object.keys(RUN_TRANSITIONS).sort()).toEqual(["BLOCKED", "CANCELLED", "COMPLETED", "RUNNING"]);
  });

  it("infers a legacy block's stage from the conversation of the run's last active item", () => {
    const steps = [
      { stepId: "a", status: "APPROVED" as const, conversationId: "ca" },
      { stepId: "b", status: "BLOCKED" as const, conversationId: "cb" },
    ];
    expect(inferBlockedStage({ activeConversationId: "m", masterConversationId: "m", steps })).toEqual({
      stage: "SUPERVISOR",
      stepId: "b",
    });
    expect(inferBlockedStage({ activeConversationId: "cb", masterConversationId: "m", steps })).toEqual({
      stage: "AGENT",
      stepId: "b",
    });
    expect(
      inferBlockedStage({
        activeConversationId: "m",
        masterConversationId: "m",
        steps: steps.map((s) => ({ ...s, status: "PENDING" as const, conversationId: null })),
      }),
    ).toEqual({ stage: "PLAN_REVIEW", stepId: null });
    expect(
      inferBlockedStage({
        activeConversationId: "m",
        masterConversationId: "m",
        steps: steps.map((s) => ({ ...s, status: "APPROVED" as const })),
      }),
    ).toEqual({ stage: "FINAL_REVIEW", stepId: null });
  });
});

describe("run plans (pure)", () => {
  const projects = [
    { id: "p1", name: "NASflix" },
    { id: "p2", name: "Agent Bibliothécaire" },
  ];

  it("parses a list or {steps}, sorts by order, and names the faulty fields", () => {
    const two = [planStep("NASflix", { id: "b", order: 2 }), planStep("NASflix", { id: "a", order: 1 })];
    expect(parsePlan(two).map((s) => s.id)).toEqual(["a", "b"]);
    expect(parsePlan(JSON.stringify({ steps: two })).map((s) => s.id)).toEqual(["a", "b"]);
    expect(() => parsePlan([])).toThrow(/run_plan_invalid/);
    expect(() => parsePlan([planStep(), planStep()])).toThrow(/run_plan_invalid/); // duplicate ids
    expect(() => parsePlan([{ ...planStep(), risk: undefined }])).toThrow(/0\.risk/);
  });

  it("resolves targets by normalised name, then by alias; an unknown target is invalid", () => {
    expect(resolveTargets(parsePlan([planStep("nasflix", { aliases: [] })]), projects)[0]!.projectId).toBe(
      "p1",
    );
    expect(resolveTargets(parsePlan([planStep("Aloe")]), projects)[0]!.projectId).toBe("p1"); // alias NASFLIX
    expect(
      resolveTargets(parsePlan([planStep("agent bibliothecaire", { aliases: [] })]), projects)[0]!.projectId,
    ).toBe("p2");
    expect(() => resolveTargets(parsePlan([planStep("Aloe", { aliases: [] })]), projects)).toThrow(
      /run_target_unknown/,
    );
  });

  it("a revised plan may change prompts only", () => {
    const current = [{ stepId: "step-one", position: 1, projectId: "p1", risk: "code" }];
    const revise = (o: Record<string, unknown>) =>
      resolveTargets(parsePlan([planStep("NASflix", o)]), projects);
    expect(() => checkRebase(current, revise({ prompt: "Nouvelle consigne." }))).not.toThrow();
    expect(() => checkRebase(current, revise({ risk: "production" }))).toThrow(/run_rebase_refused/);
    expect(() => checkRebase(current, revise({ order: 2 }))).toThrow(/run_rebase_refused/);
    expect(() =>
      checkRebase(
        current,
        resolveTargets(parsePlan([planStep("Agent Bibliothécaire", { aliases: [] })]), projects),
      ),
    ).toThrow(/run_rebase_refused/);
    expect(() =>
      checkRebase(current, [
        ...revise({}),
        ...resolveTargets(parsePlan([planStep("NASflix", { id: "x", order: 2 })]), projects),
      ]),
    ).toThrow(/run_rebase_refused/);
  });
});

describe("migration 0005_runs", () => {
  it("is idempotent, and its unique index keeps one active run in the installation", async () => {
    const { testEngine } = await import("../../support/engine.js");
    const m0005 = await import("../../../db/migrations/0005_runs.js");
    const { migrationHandle } = await import("../../../src/engine/database.js");
    const env = await testEngine();
    try {
      await m0005.up(migrationHandle(env.db as never)); // a half-applied migration simply runs again
      const row = (id: string, status: string) => ({
        id,
        owner_id: "U",
        status,
        stage: "IDLE",
        plan: "[]",
        master_project_id: "m",
        master_conversation_id: null,
        current_step_id: null,
        active_queue_id: null,
        self_repair_id: null,
        correction_round: 0,
        review_restarts: 0,
        blocked_stage: null,
        block_code: null,
        error: null,
        final_report: null,
        created_at: 0,
        updated_at: 0,
        finished_at: null,
      });
      await env.db
        .insertInto("remediation_runs")
        .values([row("a", "COMPLETED"), row("b", "CANCELLED"), row("c", "RUNNING")] as never)
        .execute();
      await expect(
        env.db
          .insertInto("remediation_runs")
          .values(row("d", "BLOCKED") as never)
          .execute(),
      ).rejects.toThrow(/UNIQUE|duplicate key/);
    } finally {
      await env.close();
    }
  });
});
