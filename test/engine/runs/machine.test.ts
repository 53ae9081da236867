import { afterEach, describe, expect, it } from "vitest";
import {
  ACTIVE_STATUSES,
  decide,
  inferBlockedStage,
  MAX_CORRECTION_ROUNDS,
  resumePoint,
  RUN_TRANSITIONS,
  canMove,
  SELF_REPAIR_TRANSITIONS,
  STEP_ACTIONS,
  STEP_TRANSITIONS,
  type RunStatus,
  type SelfRepairStatus,
  type StepStatus,
} from "../../../src/engine/runs/machine.js";
import { LostRace, moveRepair, moveRun, moveStep, mustMove } from "../../../src/engine/runs/store.js";
import { terminalStatuses } from "../../../src/engine/stateMachine.js";
import { testEngine } from "../../support/engine.js";
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

const keys = (o: object) => Object.keys(o).sort();

describe("the run's transition tables", () => {
  it("list every status; a run ends completed or cancelled, and holds the slot while running or blocked", () => {
    // A table without a status's row does not compile (test/engine/transitionTables.test.ts).
    expect(keys(RUN_TRANSITIONS)).toEqual(["BLOCKED", "CANCELLED", "COMPLETED", "RUNNING"]);
    expect(keys(STEP_TRANSITIONS)).toEqual([
      "APPROVED",
      "BLOCKED",
      "CORRECTING",
      "PENDING",
      "REVIEWING",
      "WORKING",
    ]);
    expect(keys(SELF_REPAIR_TRANSITIONS)).toEqual([
      "FAILED",
      "NEEDS_USER",
      "RUNNING",
      "SUCCEEDED",
      "SUPERSEDED",
    ]);
    expect(RUN_TRANSITIONS).toEqual({
      RUNNING: ["BLOCKED", "COMPLETED", "CANCELLED"],
      BLOCKED: ["RUNNING", "CANCELLED"],
      COMPLETED: [],
      CANCELLED: [],
    });
    expect(terminalStatuses(RUN_TRANSITIONS)).toEqual(["COMPLETED", "CANCELLED"]);
    const live = keys(RUN_TRANSITIONS).filter(
      (s) => !terminalStatuses(RUN_TRANSITIONS).includes(s as RunStatus),
    );
    expect([...ACTIVE_STATUSES].sort()).toEqual(live);
    expect(terminalStatuses(STEP_TRANSITIONS)).toEqual(["APPROVED"]);
    expect(terminalStatuses(SELF_REPAIR_TRANSITIONS)).toEqual(["SUCCEEDED", "SUPERSEDED", "FAILED"]);
  });
});

describe("the run's guarded moves", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  const runRow = (id: string, status: RunStatus) => ({
    id,
    owner_id: "U",
    status,
    stage: status === "RUNNING" ? ("AGENT" as const) : ("IDLE" as const),
    plan: "[]",
    master_project_id: "m",
    master_conversation_id: null,
    current_step_id: null,
    active_queue_id: null,
    self_repair_id: null,
    blocked_stage: null,
    block_code: null,
    error: null,
    final_report: null,
    created_at: 0,
    updated_at: 0,
    finished_at: null,
  });
  const stepRow = (id: string, runId: string, position: number, status: StepStatus) => ({
    id,
    run_id: runId,
    step_id: `s${position}`,
    position,
    phase: 1,
    phase_label: "P",
    title: "t",
    summary: "s",
    risk: "code",
    target: "demo",
    aliases: "[]",
    project_id: "p",
    prompt: "do",
    status,
    conversation_id: null,
    queue_id: null,
    attempts: 0,
    feedback: null,
    created_at: 0,
    updated_at: 0,
    finished_at: null,
  });
  const repairRow = (id: string, runId: string, status: SelfRepairStatus) => ({
    id,
    run_id: runId,
    step_id: null,
    status,
    blocked_stage: "AGENT" as const,
    block_code: "item_failed" as const,
    error: "x",
    project_id: "p",
    conversation_id: "c",
    queue_id: "q",
    feedback: null,
    prompt_addendum: null,
    created_at: 0,
    updated_at: 0,
    finished_at: null,
  });
  const statusOf = async (
    table: "remediation_runs" | "remediation_step_runs" | "remediation_self_repairs",
    id: string,
  ) =>
    (await env!.db.selectFrom(table).select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

  it("a run moves only from the status it was read in: a stale read moves nothing, a fresh one moves it", async () => {
    env = await testEngine();
    await env.db
      .insertInto("remediation_runs")
      .values([runRow("done", "COMPLETED"), runRow("live", "RUNNING")])
      .execute();
    // Read as RUNNING, but it completed meanwhile: the guard matches nothing.
    const stale = { id: "done", status: "RUNNING" as const, active_queue_id: null };
    expect(await moveRun(env.db, stale, { status: "BLOCKED", stage: "IDLE" }, 5)).toBe(false);
    expect(await statusOf("remediation_runs", "done")).toBe("COMPLETED");
    // A move the table does not have is a defect, not a lost race.
    await expect(
      moveRun(env.db, { id: "done", status: "COMPLETED", active_queue_id: null }, { status: "RUNNING" }, 5),
    ).rejects.toThrow("run done: COMPLETED → RUNNING is not a transition");
    // Positive control: the same move from the status the row is in.
    const fresh = { id: "live", status: "RUNNING" as const, active_queue_id: null };
    expect(await moveRun(env.db, fresh, { status: "BLOCKED", stage: "IDLE" }, 5)).toBe(true);
    expect(await statusOf("remediation_runs", "live")).toBe("BLOCKED");
    // The second of two moves from the same read lost the race; in a transition it rolls back.
    expect(await moveRun(env.db, fresh, { status: "CANCELLED", stage: "IDLE" }, 6)).toBe(false);
    await expect(mustMove(moveRun(env.db, fresh, { stage: "AGENT" }, 6), "run live")).rejects.toBeInstanceOf(
      LostRace,
    );
    await expect(mustMove(Promise.resolve(true), "run live")).resolves.toBeUndefined();
    expect(await statusOf("remediation_runs", "live")).toBe("BLOCKED");
  });

  it("a step moves only from the statuses its action allows: an approved one is not resumed, a blocked one is", async () => {
    env = await testEngine();
    await env.db.insertInto("remediation_runs").values(runRow("r", "BLOCKED")).execute();
    await env.db
      .insertInto("remediation_step_runs")
      .values([stepRow("approved", "r", 1, "APPROVED"), stepRow("blocked", "r", 2, "BLOCKED")])
      .execute();
    expect(await moveStep(env.db, "approved", STEP_ACTIONS.resume, { status: "REVIEWING" }, 5)).toBe(false);
    expect(await statusOf("remediation_step_runs", "approved")).toBe("APPROVED");
    expect(await moveStep(env.db, "blocked", STEP_ACTIONS.resume, { status: "REVIEWING" }, 5)).toBe(true);
    expect(await statusOf("remediation_step_runs", "blocked")).toBe("REVIEWING");
  });

  it("a self-repair settles once: a superseded one is not settled, a running one is", async () => {
    env = await testEngine();
    await env.db.insertInto("remediation_runs").values(runRow("r", "BLOCKED")).execute();
    await env.db
      .insertInto("remediation_self_repairs")
      .values([repairRow("gone", "r", "SUPERSEDED"), repairRow("running", "r", "RUNNING")])
      .execute();
    expect(await moveRepair(env.db, "gone", "RUNNING", { status: "SUCCEEDED", finished_at: 5 }, 5)).toBe(
      false,
    );
    expect(await statusOf("remediation_self_repairs", "gone")).toBe("SUPERSEDED");
    expect(await moveRepair(env.db, "running", "RUNNING", { status: "SUCCEEDED", finished_at: 5 }, 5)).toBe(
      true,
    );
    expect(await statusOf("remediation_self_repairs", "running")).toBe("SUCCEEDED");
  });
});
