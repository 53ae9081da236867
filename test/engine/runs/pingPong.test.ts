import { afterEach, describe, expect, it } from "vitest";
import { engineErrorText } from "../../../src/i18n/index.js";
import { blockRun, getRun, runStatus, runTick, startRun } from "../../../src/engine/runs/index.js";
import { APPROVE_PLAN, OWNER, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "./runEnv.js";

describe("autonomous runs: the master and the project agents", () => {
  let env: RunEnv;
  afterEach(async () => env?.close());

  it("S-RUN-01: master and project ping-pong runs until the final report", async () => {
    env = await runEnv();
    const created = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const runId = created.id;
    expect(created.stage).toBe("PLAN_REVIEW");
    expect(created.steps[0]!.status).toBe("PENDING");
    const planItem = await env.queueRow(created.active_queue_id!);
    expect(planItem).toMatchObject({
      conversation_id: created.master_conversation_id,
      origin_kind: "run_stage",
      requested_by: OWNER,
    });
    expect(planItem.content).toContain("Réduire la charge");

    await env.finishActive(
      runId,
      'Plan cohérent.\nCODEXPI_SUPERVISION {"decision":"approve","feedback":"Ordre validé"}',
    );
    expect((await env.tick()).state).toBe("processed");
    const running = await env.run(runId);
    expect(running.stage).toBe("AGENT");
    expect(running.steps[0]!.status).toBe("WORKING");
    const firstConversation = running.steps[0]!.conversation_id!;
    const conversation = await env.db
      .selectFrom("conversations")
      .selectAll()
      .where("id", "=", firstConversation)
      .executeTakeFirstOrThrow();
    expect(conversation).toMatchObject({ project_id: env.target.id, user_id: OWNER });
    const agentItem = await env.queueRow(running.active_queue_id!);
    expect(agentItem).toMatchObject({ conversation_id: firstConversation, origin_kind: "run_stage" });
    expect(agentItem.content).toContain("Inspecter les traitements de fond");

    await env.finishActive(runId, "Correction appliquée, mais preuve partielle.");
    await env.tick();
    const reviewing = await env.run(runId);
    expect(reviewing.stage).toBe("SUPERVISOR");
    expect(reviewing.steps[0]!.status).toBe("REVIEWING");
    const review = await env.queueRow(reviewing.active_queue_id!);
    expect(review.conversation_id).toBe(created.master_conversation_id);
    expect(review.content).toContain("> Correction appliquée, mais preuve partielle."); // the agent's report, quoted as data

    await env.finishActive(
      runId,
      'Preuve insuffisante.\nCODEXPI_SUPERVISION {"decision":"correct","feedback":"Ajouter la mesure avant/après"}',
    );
    await env.tick();
    const correcting = await env.run(runId);
    expect(correcting.stage).toBe("AGENT");
    expect(correcting.correction_round).toBe(1);
    expect(correcting.steps[0]!.status).toBe("CORRECTING");
    expect(correcting.steps[0]!.conversation_id).toBe(firstConversation);
    expect(correcting.steps[0]!.attempts).toBe(2);
    expect((await env.queueRow(correcting.active_queue_id!)).content).toContain(
      "Ajouter la mesure avant/après",
    );

    await env.finishActive(runId, "Correction complète avec mesures et tests réussis.");
    await env.tick();
    await env.finishActive(
      runId,
      'Résultat vérifié.\nCODEXPI_SUPERVISION {"decision":"approve","feedback":"Mesures et tests conformes"}',
    );
    await env.tick();
    const finalizing = await env.run(runId);
    expect(finalizing.stage).toBe("FINAL_REVIEW");
    expect(finalizing.steps[0]!.status).toBe("APPROVED");
    expect(finalizing.steps[0]!.finished_at).not.toBeNull();

    await env.finishActive(runId, "Synthèse finale du chantier.");
    await env.tick();
    const completed = await env.run(runId);
    expect(completed.status).toBe("COMPLETED");
    expect(completed.stage).toBe("IDLE");
    expect(completed.final_report).toBe("Synthèse finale du chantier.");
    expect(completed.events.some((e) => e.kind === "run.completed")).toBe(true);

    // Every master verdict reaches the outbox for the run's Slack thread, in order.
    const verdicts = await env.db
      .selectFrom("outbox")
      .select(["payload", "ordering_key"])
      .where("kind", "=", "run.verdict")
      .orderBy("id")
      .execute();
    expect(verdicts.map((v) => (JSON.parse(v.payload) as { decision: string }).decision)).toEqual([
      "approve",
      "correct",
      "approve",
    ]);
    expect(verdicts.every((v) => v.ordering_key === `run:${runId}`)).toBe(true);
  });

  it("a run of two steps goes from the first approval to the second project's agent, in a new conversation", async () => {
    env = await runEnv();
    const other = await env.addProject({ name: "Aloe", ownerId: OWNER });
    const run = await startRun(env.engine, OWNER_ACTOR, {
      steps: [planStep(), planStep("Aloe", { id: "step-two", order: 2, aliases: [] })],
    });
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, "Fait.");
    await env.tick();
    await env.finishActive(run.id, 'CODEXPI_SUPERVISION {"decision":"approve","feedback":"OK"}');
    await env.tick();
    const second = await env.run(run.id);
    expect(second.stage).toBe("AGENT");
    expect(second.steps.map((s) => s.status)).toEqual(["APPROVED", "WORKING"]);
    const conv = await env.db
      .selectFrom("conversations")
      .select("project_id")
      .where("id", "=", second.steps[1]!.conversation_id!)
      .executeTakeFirstOrThrow();
    expect(conv.project_id).toBe(other.id);
    expect(second.correction_round).toBe(0);
  });

  it("a fourth correction request blocks the run (at most 3 rounds)", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    for (let round = 1; round <= 4; round++) {
      await env.finishActive(run.id, `Tentative ${round}.`);
      await env.tick();
      await env.finishActive(
        run.id,
        `CODEXPI_SUPERVISION {"decision":"correct","feedback":"Encore ${round}"}`,
      );
      await env.tick();
      const d = await env.run(run.id);
      if (round < 4) expect(d).toMatchObject({ status: "RUNNING", stage: "AGENT", correction_round: round });
    }
    const blocked = await env.run(run.id);
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      block_code: "corrections_exhausted",
      blocked_stage: "SUPERVISOR",
    });
    expect(blocked.error).toContain("Encore 4");
    expect(blocked.steps[0]!.status).toBe("BLOCKED");
  });

  it("a master's answer without a verdict blocks the run; ticking again changes nothing", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, "approuvé sans marqueur");
    expect((await env.tick()).state).toBe("blocked");
    const blocked = await env.run(run.id);
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      block_code: "no_verdict",
      blocked_stage: "PLAN_REVIEW",
      self_repair: null,
    });
    expect(blocked.error).toContain("CODEXPI_SUPERVISION");
    const before = {
      events: blocked.events.length,
      queue: (await env.db.selectFrom("prompt_queue").select("id").execute()).length,
    };
    expect((await env.tick()).state).toBe("processed");
    expect(await runTick(env.engine)).toEqual({ state: "idle" });
    const after = await env.run(run.id);
    expect(after.events).toHaveLength(before.events);
    expect(await env.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(before.queue);
  });

  it("a second tick changes nothing: each finished item is processed exactly once", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    expect(await runTick(env.engine)).toEqual({ state: "processed", run_id: run.id });
    const once = await env.run(run.id);
    expect(await runTick(env.engine)).toEqual({ state: "idle" });
    await env.tick();
    const twice = await env.run(run.id);
    expect(twice.events).toEqual(once.events);
    expect(twice.active_queue_id).toBe(once.active_queue_id);
    expect(twice.steps).toEqual(once.steps);
    const items = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("origin_kind", "=", "run_stage")
      .execute();
    expect(items).toHaveLength(2); // the plan review and the step's first prompt, nothing more
  });

  it("S-RUN-02: only one autonomous run can be active (a BLOCKED one counts)", async () => {
    env = await runEnv();
    const first = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const refused = await startRun(env.engine, OWNER_ACTOR, [planStep()]).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "conflict", reason: "run_active" });
    expect(engineErrorText("fr", refused as never)).toContain("déjà en cours");
    await blockRun(env.engine, first.id, "bloqué pour le test", { code: "master_block" });
    expect((await env.run(first.id)).status).toBe("BLOCKED");
    await expect(
      startRun(env.engine, { userId: "UOTHER", isAdmin: true }, [planStep()]),
    ).rejects.toMatchObject({ reason: "run_active" });
    expect(await env.db.selectFrom("remediation_runs").select("id").execute()).toHaveLength(1);
  });

  it("S-RUN-14: the owner starts and reads the run from the user interface", async () => {
    env = await runEnv();
    expect(await runStatus(env.engine, OWNER_ACTOR)).toEqual({ status: "NOT_STARTED" });
    const started = await startRun(env.engine, OWNER_ACTOR, JSON.stringify({ steps: [planStep()] })); // the modal's JSON text
    expect(started.stage).toBe("PLAN_REVIEW");
    expect(started.master_conversation_id).toBeTruthy();
    const master = await env.db
      .selectFrom("conversations")
      .select("project_id")
      .where("id", "=", started.master_conversation_id!)
      .executeTakeFirstOrThrow();
    expect(master.project_id).toBe(env.masterId);
    const current = await runStatus(env.engine, OWNER_ACTOR);
    expect(current.status).toBe("RUNNING");
    expect(current).toMatchObject({ id: started.id, owner_id: OWNER });
    // Someone else neither sees nor drives it.
    expect(await runStatus(env.engine, { userId: "USTRANGER", isAdmin: false })).toEqual({
      status: "NOT_STARTED",
    });
    await expect(
      getRun(env.engine, { userId: "USTRANGER", isAdmin: false }, started.id),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await getRun(env.engine, { userId: "UADMIN", isAdmin: true }, started.id)).id).toBe(started.id);
  });

  it("a plan is validated: malformed JSON, missing fields and unknown or foreign targets are invalid", async () => {
    env = await runEnv();
    await env.addProject({ name: "Secret", ownerId: "USOMEONE" });
    await expect(startRun(env.engine, OWNER_ACTOR, "{pas du json")).rejects.toMatchObject({
      code: "invalid",
      reason: "run_plan_invalid",
    });
    await expect(startRun(env.engine, OWNER_ACTOR, [{ ...planStep(), prompt: "" }])).rejects.toMatchObject({
      code: "invalid",
      params: { fields: "0.prompt" },
    });
    await expect(
      startRun(env.engine, OWNER_ACTOR, [planStep("Inconnu", { aliases: [] })]),
    ).rejects.toMatchObject({ code: "invalid", reason: "run_target_unknown" });
    await expect(
      startRun(env.engine, OWNER_ACTOR, [planStep("Secret", { aliases: [] })]),
    ).rejects.toMatchObject({ reason: "run_target_unknown" });
    await expect(
      startRun(env.engine, OWNER_ACTOR, [planStep("Agent maître", { aliases: [] })]),
    ).rejects.toMatchObject({ reason: "run_target_unknown" });
    expect(await runStatus(env.engine, OWNER_ACTOR)).toEqual({ status: "NOT_STARTED" });
  });
});
