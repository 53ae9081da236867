import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../../../src/engine/ids.js";
import type { Kernel } from "../../../src/engine/kernel.js";
import type { Database } from "../../../src/engine/database.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { answerDecisionUseCase, listDecisions } from "../../../src/engine/coordination/decisions.js";
import { listIncidents, retryIncident } from "../../../src/engine/coordination/incidents.js";
import { createSpecialist, rebuildSpecialist } from "../../../src/engine/coordination/specialists.js";
import {
  approveDraft,
  createOrchestration,
  requestCorrections,
} from "../../../src/engine/orchestrations/index.js";
import { blockRun, cancelRun, resumeRun, startRun } from "../../../src/engine/runs/index.js";
import { clearBudget, setBudget } from "../../../src/engine/usage/index.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository } from "../orchestrations/repo.js";
import { APPROVE_PLAN, planStep, runEnv } from "../runs/runEnv.js";

// Issue 32, item 7: every use case that queues a turn checks the budgets of its project and of
// the person it is charged to. Each path: refused once a budget is spent (nothing queued, the
// person told why), and queued with budget left (the positive control).

const ADMIN = { userId: "UADMIN", isAdmin: true };
type Engineish = { engine: Kernel; db: Database; clock: { now(): number } };

/** A daily budget of 100 tokens for the owner. */
const ownerBudget = (env: Engineish) =>
  setBudget(env.engine, ADMIN, { scope: "user", name: OWNER }, { daily: 100 });

/** Records a finished turn of 100 tokens today, charged to `person` in `projectId`. */
async function spend(env: Engineish, projectId: string, person: string | null): Promise<void> {
  await env.db
    .insertInto("turn_usage")
    .values({
      queue_id: newId(),
      conversation_id: newId(),
      project_id: projectId,
      person,
      model: null,
      input_tokens: 80,
      cached_input_tokens: 0,
      output_tokens: 20,
      total_input_tokens: 80,
      total_cached_input_tokens: 0,
      total_output_tokens: 20,
      agent_ms: 1000,
      day: new Date(env.clock.now()).toISOString().slice(0, 10),
      finished_at: env.clock.now(),
    })
    .execute();
}

const queued = async (env: Engineish) =>
  (await env.db.selectFrom("prompt_queue").select("id").execute()).length;

/** The refusal `ask` gives, as the person reads it. */
async function expectOverBudget(p: Promise<unknown>): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code: "forbidden", reason: "over_budget" });
  expect(engineErrorText("en", err)).toContain("daily budget of user UOWNER is reached");
}

describe("budgets on every path that starts a turn (engine)", () => {
  const envs: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const e of envs.splice(0)) await e.close();
  });

  it("S-BUDGET-01: an orchestration's draft, approval and corrections are refused once the budget is spent; with budget left the approval and the corrections queue the agent's turns", async () => {
    const env = await disposableRepository();
    envs.push(env);
    await ownerBudget(env);
    const input = {
      project_id: env.projectId,
      name: "Jetable",
      request: "Changer app.txt",
      tests: [APP_TEST],
    };
    // Budget left: the draft is written and its approval queues the agent's first turn.
    const flow = await createOrchestration(env.engine, OWNER_ACTOR, input);
    const spare = await createOrchestration(env.engine, OWNER_ACTOR, { ...input, name: "Seconde" });
    const started = await approveDraft(env.engine, OWNER_ACTOR, flow.id, flow.draft_hash);
    expect(started.status).toBe("AGENT_RUNNING");
    expect(await queued(env)).toBe(1);
    await completedOutput(env.db, started.conversation_id!, started.queue_id!, "fait", env.clock.now());
    // Budget left: corrections queue a second turn in the agent's conversation.
    const corrected = await requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Plus court");
    expect(corrected.status).toBe("AGENT_RUNNING");
    expect(await queued(env)).toBe(2);
    await completedOutput(env.db, corrected.conversation_id!, corrected.queue_id!, "fait", env.clock.now());

    await spend(env, env.projectId, OWNER);
    await expectOverBudget(createOrchestration(env.engine, OWNER_ACTOR, { ...input, name: "Troisième" }));
    await expectOverBudget(approveDraft(env.engine, OWNER_ACTOR, spare.id, spare.draft_hash));
    await expectOverBudget(requestCorrections(env.engine, OWNER_ACTOR, flow.id, "Encore"));
    expect(await queued(env)).toBe(2);
    expect(
      await env.db.selectFrom("orchestrations").select("id").where("status", "=", "PREPARING").execute(),
    ).toHaveLength(0);
  });

  it("S-BUDGET-02: a run's start and resume are refused once the budget is spent, and a stage its tick would queue blocks the run with the reason (no self-repair); resumed once the budget allows", async () => {
    const env = await runEnv();
    envs.push(env);
    await ownerBudget(env);
    // Budget left: the start queues the master's plan review.
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    expect(await queued(env)).toBe(1);
    await env.addSelf();
    await env.finishActive(run.id, APPROVE_PLAN);
    await spend(env, env.masterId, OWNER);
    await env.tick();
    const blocked = await env.run(run.id);
    expect(blocked).toMatchObject({ status: "BLOCKED", block_code: "over_budget", self_repair: null });
    expect(blocked.error).toContain("budget");
    expect(blocked.steps[0]!.conversation_id).toBeNull();
    expect(await queued(env)).toBe(1);
    await expectOverBudget(resumeRun(env.engine, OWNER_ACTOR));
    await expectOverBudget(resumeRun(env.engine, OWNER_ACTOR, { plan: [planStep()] }));
    expect(await queued(env)).toBe(1);

    // The budget raised: the resume reads the approved plan again and the first step starts.
    await clearBudget(env.engine, ADMIN, { scope: "user", name: OWNER });
    expect((await resumeRun(env.engine, OWNER_ACTOR)).status).toBe("RUNNING");
    await env.tick();
    const going = await env.run(run.id);
    expect(going.steps[0]!.status).toBe("WORKING");
    expect(await queued(env)).toBe(2);
  });

  it("S-BUDGET-02: a run blocked for another reason sends no self-repair while its owner's budget is spent (the run waits for its owner); with budget left the repair starts", async () => {
    const env = await runEnv();
    envs.push(env);
    await env.addSelf();
    await ownerBudget(env);
    // Budget left: a block dispatches the self-repair (the positive control).
    const first = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await blockRun(env.engine, first.id, "boom");
    expect((await env.run(first.id)).self_repair?.status).toBe("RUNNING");
    await cancelRun(env.engine, OWNER_ACTOR, first.id);

    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await spend(env, env.masterId, OWNER);
    const before = await queued(env);
    await blockRun(env.engine, run.id, "boom");
    const blocked = await env.run(run.id);
    expect(blocked).toMatchObject({ status: "BLOCKED", self_repair: null });
    expect(blocked.events.find((e) => e.kind === "self_repair.skipped")?.details).toMatchObject({
      reason: "over_budget",
    });
    expect(await queued(env)).toBe(before);
  });

  it("S-BUDGET-02: a run's start is refused when the budget is spent, nothing queued", async () => {
    const env = await runEnv();
    envs.push(env);
    await ownerBudget(env);
    await spend(env, env.target.id, OWNER);
    await expectOverBudget(startRun(env.engine, OWNER_ACTOR, [planStep()]));
    expect(await queued(env)).toBe(0);
    expect(await env.db.selectFrom("remediation_runs").select("id").execute()).toHaveLength(0);
  });

  it("S-BUDGET-03: a specialist's bootstrap (creation, rebuild) is refused once its owner's budget is spent; with budget left it is queued", async () => {
    const env = await coordinationEnv();
    envs.push(env);
    await ownerBudget(env);
    const input = {
      name: "Studio",
      description: "Conçoit les interfaces mobiles.",
      capabilities: ["design.ui"],
    };
    const s = await createSpecialist(env.engine, OWNER_ACTOR, input);
    expect(s.bootstrap_queue_id).toBeTruthy();
    expect(await queued(env)).toBe(1);
    await env.db.updateTable("specialist_agents").set({ status: "FAILED" }).where("id", "=", s.id).execute();
    await spend(env, env.source.id, OWNER);
    await expectOverBudget(createSpecialist(env.engine, OWNER_ACTOR, { ...input, name: "Autre" }));
    await expectOverBudget(rebuildSpecialist(env.engine, OWNER_ACTOR, s.id));
    expect(await queued(env)).toBe(1);
    expect(await env.db.selectFrom("specialist_agents").select("id").execute()).toHaveLength(1);
  });

  it("S-BUDGET-04: a delegation is not started once the person's budget is spent: it fails with the reason, told to the asking agent; with budget left it starts", async () => {
    const env = await coordinationEnv();
    envs.push(env);
    const s = await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio",
      description: "Conçoit les interfaces mobiles.",
      capabilities: ["design.ui"],
    });
    await completedOutput(
      env.db,
      s.bootstrap_conversation_id!,
      s.bootstrap_queue_id!,
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.ui"]}',
    );
    await env.engine.tick();
    await ownerBudget(env);
    const call = 'CODEXPI_SPECIALIST_CALL {"capability":"design.ui","task":"Maquette","context":""}';
    const calling = async () => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Go", OWNER);
      await completedOutput(env.db, conversation.id, item.id, call);
      await writeTransaction(env.db, (trx) =>
        env.engine.hook(trx, conversation.id, item.id, "done", call, null),
      );
      return { conversation, item };
    };
    const delegationOf = (queueId: string) =>
      env.db
        .selectFrom("specialist_delegations")
        .selectAll()
        .where("source_queue_id", "=", queueId)
        .executeTakeFirstOrThrow();
    // Budget left: the tick starts the delegation in the specialist's project.
    const first = await calling();
    await env.engine.tick();
    expect((await delegationOf(first.item.id)).status).toBe("RUNNING");

    await spend(env, env.source.id, OWNER);
    const second = await calling();
    await env.engine.tick();
    const refused = await delegationOf(second.item.id);
    expect(refused).toMatchObject({ status: "FAILED", specialist_conversation_id: null, queue_id: null });
    expect(refused.error).toContain("budget");
    const told = await env.db
      .selectFrom("prompt_queue")
      .select("content")
      .where("conversation_id", "=", second.conversation.id)
      .where("origin_kind", "=", "specialist_result")
      .executeTakeFirstOrThrow();
    expect(told.content).toContain("budget");
    expect(
      await env.db.selectFrom("prompt_queue").select("id").where("origin_kind", "=", "delegation").execute(),
    ).toHaveLength(1);
  });

  it("S-BUDGET-05: answering a decision is refused once the answering person's budget is spent (the decision stays open); with budget left the answer is queued", async () => {
    const env = await coordinationEnv();
    envs.push(env);
    const MARKER =
      'CODEXPI_DECISION {"title":"Choix","question":"Laquelle ?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}],"allow_multiple":false,"allow_custom":false}';
    const decide = async () => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Go", OWNER);
      await completedOutput(env.db, conversation.id, item.id, "?");
      await writeTransaction(env.db, (trx) =>
        env.engine.hook(trx, conversation.id, item.id, "done", MARKER, null),
      );
    };
    await decide();
    await decide();
    await ownerBudget(env);
    const [one, two] = await listDecisions(env.db, OWNER_ACTOR);
    const before = await queued(env);
    const answered = await answerDecisionUseCase(env.engine, OWNER_ACTOR, one!.id, ["a"], "");
    expect(answered.value.status).toBe("ANSWERED");
    expect(await queued(env)).toBe(before + 1);

    await spend(env, env.source.id, OWNER);
    await expectOverBudget(answerDecisionUseCase(env.engine, OWNER_ACTOR, two!.id, ["a"], ""));
    expect(await queued(env)).toBe(before + 1);
    expect((await listDecisions(env.db, OWNER_ACTOR)).find((d) => d.id === two!.id)?.status).toBe("OPEN");
  });

  it("S-BUDGET-06: retrying an incident is refused once the person's budget is spent; with budget left it is queued", async () => {
    const env = await coordinationEnv();
    envs.push(env);
    const failing = async () => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Go", OWNER);
      await writeTransaction(env.db, (trx) =>
        env.engine.hook(trx, conversation.id, item.id, "failed", null, "boom"),
      );
    };
    await failing();
    await failing();
    // Not sent to self-repair here: this test is about the person's retry.
    await env.db.updateTable("incidents").set({ auto_repair: 0 }).execute();
    await ownerBudget(env);
    const [one, two] = await listIncidents(env.db, OWNER_ACTOR);
    const before = await queued(env);
    await retryIncident(env.engine, OWNER_ACTOR, one!.id);
    expect(await queued(env)).toBe(before + 1);
    await spend(env, env.source.id, OWNER);
    await expectOverBudget(retryIncident(env.engine, OWNER_ACTOR, two!.id));
    expect(await queued(env)).toBe(before + 1);
  });

  it("S-BUDGET-07: an incident's self-repair waits while the self project's budget is spent (the incident stays open, admins told once) and starts once it allows", async () => {
    const env = await coordinationEnv();
    envs.push(env);
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Go", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", null, "boom"),
    );
    const self = await env.db
      .selectFrom("projects")
      .select(["id", "name"])
      .where("role", "=", "self")
      .executeTakeFirstOrThrow();
    await setBudget(env.engine, ADMIN, { scope: "project", name: self.name }, { daily: 100 });
    await spend(env, self.id, null);
    const repairs = () =>
      env.db.selectFrom("prompt_queue").select("id").where("origin_kind", "=", "repair").execute();
    await env.engine.tick();
    await env.engine.tick();
    expect(await repairs()).toHaveLength(0);
    expect((await listIncidents(env.db, OWNER_ACTOR))[0]).toMatchObject({ status: "OPEN" });
    expect(
      await env.db.selectFrom("budget_alerts").select("subject").where("subject", "=", self.id).execute(),
    ).toHaveLength(1);
    await clearBudget(env.engine, ADMIN, { scope: "project", name: self.name });
    await env.engine.tick();
    expect(await repairs()).toHaveLength(1);
    expect((await listIncidents(env.db, OWNER_ACTOR))[0]).toMatchObject({ status: "REPAIRING" });
  });
});
