import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine/engine.js";
import { INTERRUPTED_WORKER_REASON } from "../../../src/engine/conversations/outcome.js";
import { blockRun, configureRuns, getRun, resumeRun, startRun } from "../../../src/engine/runs/index.js";
import { APPROVE_PLAN, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "./runEnv.js";

/** Plan approved, then the agent's answer, then the master's block verdict. */
async function blockAtReview(env: RunEnv, runId: string, agent: string, feedback: string) {
  await env.finishActive(runId, APPROVE_PLAN);
  await env.tick();
  const conversationId = (await env.run(runId)).steps[0]!.conversation_id!;
  await env.finishActive(runId, agent);
  await env.tick();
  await env.finishActive(runId, `CODEXPI_SUPERVISION {"decision":"block","feedback":"${feedback}"}`);
  await env.tick();
  return conversationId;
}

describe("autonomous runs: self-repair", () => {
  let env: RunEnv;
  afterEach(async () => env?.close());

  it("S-RUN-06: a block dispatches CodexPi (Self) in a new conversation without touching the step's", async () => {
    env = await runEnv();
    const selfId = await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const target = await blockAtReview(
      env,
      run.id,
      "La protection persistante manque.",
      "Corriger le contrat de reprise",
    );
    const blocked = await env.run(run.id);
    const repair = blocked.self_repair!;
    expect(blocked.status).toBe("BLOCKED");
    expect(blocked.steps[0]!.conversation_id).toBe(target);
    expect(repair.status).toBe("RUNNING");
    expect(repair.project_id).toBe(selfId);
    expect(repair.conversation_id).not.toBe(target);
    expect(repair.blocked_stage).toBe("SUPERVISOR");
    const queued = await env.queueRow(repair.queue_id);
    expect(queued.content).toContain("Corriger le contrat de reprise");
    expect(queued.content).toContain("Ne contourne jamais");
    expect(queued.origin_kind).toBe("repair"); // restricted sandbox, whatever the self project's access
    expect(blocked.events.some((e) => e.kind === "self_repair.started")).toBe(true);
    // The step's conversation got nothing new.
    expect(
      await env.db.selectFrom("prompt_queue").select("id").where("conversation_id", "=", target).execute(),
    ).toHaveLength(1);
    // A second tick while the repair works changes nothing.
    await env.tick();
    expect((await env.run(run.id)).events).toEqual(blocked.events);
  });

  it("S-RUN-07: a successful self-repair rebases and resumes the same step", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const target = await blockAtReview(
      env,
      run.id,
      "Le plan impose deux contraintes contradictoires.",
      "Contradiction du plan",
    );
    const repair = (await env.run(run.id)).self_repair!;
    await env.finishQueue(
      repair.queue_id,
      'Correction et tests terminés.\nCODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"Le contrat distingue maintenance et perte de données.","prompt_addendum":"Une courte maintenance réversible est autorisée sans perte de données."}',
    );
    expect((await env.tick()).state).toBe("self_repair_processed");
    const resumed = await env.run(run.id);
    expect(resumed.status).toBe("RUNNING");
    expect(resumed.stage).toBe("AGENT");
    expect(resumed.steps[0]!.status).toBe("CORRECTING");
    expect(resumed.steps[0]!.conversation_id).toBe(target);
    expect(resumed.steps[0]!.attempts).toBe(2);
    expect(resumed.steps[0]!.prompt).toContain("courte maintenance réversible");
    expect(resumed.self_repair!.status).toBe("SUCCEEDED");
    expect(resumed.events.some((e) => e.kind === "self_repair.resumed")).toBe(true);
    const queued = await env.queueRow(resumed.active_queue_id!);
    expect(queued.conversation_id).toBe(target);
    expect(queued.content).toContain("courte maintenance réversible");
    expect((await env.tick()).state).toBe("processed"); // nothing left to settle
  });

  it("S-RUN-08: a self-repair answering needs_user leaves the run BLOCKED (blocked during plan review)", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(
      run.id,
      'CODEXPI_SUPERVISION {"decision":"block","feedback":"Secret externe requis"}',
    );
    await env.tick();
    const repair = (await env.run(run.id)).self_repair!;
    expect(repair.blocked_stage).toBe("PLAN_REVIEW");
    await env.finishQueue(
      repair.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"needs_user","feedback":"Un secret externe doit être fourni","prompt_addendum":""}',
    );
    expect((await env.tick()).state).toBe("self_repair_processed");
    const blocked = await env.run(run.id);
    expect(blocked.status).toBe("BLOCKED");
    expect(blocked.self_repair!.status).toBe("NEEDS_USER");
    expect(blocked.self_repair!.feedback).toBe("Un secret externe doit être fourni");
    // The owner's resume asks the master to review the plan again.
    const resumed = await resumeRun(env.engine, OWNER_ACTOR);
    expect(resumed).toMatchObject({ status: "RUNNING", stage: "PLAN_REVIEW" });
    expect((await env.queueRow(resumed.active_queue_id!)).conversation_id).toBe(run.master_conversation_id);
  });

  it("S-RUN-09: deployment approval stays blocked without completing the step, until the owner resumes", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep("Aloe")]); // resolves through the alias NASFLIX
    expect(run.steps[0]!.project_id).toBe(env.target.id);
    await blockAtReview(
      env,
      run.id,
      "Les manifests et les contrôles dry-run sont valides.",
      "Le déploiement et le redémarrage exigent la validation distincte du propriétaire",
    );
    const repair = (await env.run(run.id)).self_repair!;
    await env.finishQueue(
      repair.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"needs_user","feedback":"Validation propriétaire requise avant déploiement ou redémarrage","prompt_addendum":""}',
    );
    expect((await env.tick()).state).toBe("self_repair_processed");
    const blocked = await env.run(run.id);
    expect(blocked.status).toBe("BLOCKED");
    expect(blocked.steps[0]!.status).toBe("BLOCKED");
    expect(blocked.steps[0]!.finished_at).toBeNull();
    expect(blocked.self_repair!.status).toBe("NEEDS_USER");
    expect(blocked.self_repair!.prompt_addendum).toBe("");
    const resumed = await resumeRun(env.engine, OWNER_ACTOR);
    expect(resumed.status).toBe("RUNNING");
    expect(resumed.stage).toBe("AGENT");
    expect(resumed.self_repair!.status).toBe("SUPERSEDED");
    expect(resumed.events.some((e) => e.kind === "self_repair.owner_resolved")).toBe(true);
  });

  it("S-RUN-11: the self-repair of an interrupted supervisor resumes the review, not the agent", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep("Aloe")]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, "Déploiement réversible terminé avec mesures avant/après.");
    await env.tick();
    const reviewing = await env.run(run.id);
    const attempts = reviewing.steps[0]!.attempts;
    await blockRun(env.engine, run.id, INTERRUPTED_WORKER_REASON, {
      code: "interrupted",
      stepId: "step-one",
    });
    const repair = (await env.run(run.id)).self_repair!;
    expect(repair).toMatchObject({
      status: "RUNNING",
      blocked_stage: "SUPERVISOR",
      block_code: "interrupted",
    });
    await env.finishQueue(
      repair.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"Reprise de revue bornée testée","prompt_addendum":""}',
    );
    expect((await env.tick()).state).toBe("self_repair_processed");
    const resumed = await env.run(run.id);
    expect(resumed.status).toBe("RUNNING");
    expect(resumed.stage).toBe("SUPERVISOR");
    expect(resumed.steps[0]!.status).toBe("REVIEWING");
    expect(resumed.steps[0]!.attempts).toBe(attempts);
    const queued = await env.queueRow(resumed.active_queue_id!);
    expect(queued.conversation_id).toBe(run.master_conversation_id);
    expect(queued.content).toContain("Reprends uniquement l’inspection");
    expect(queued.content).toContain("Déploiement réversible terminé"); // the agent's report, reviewed again
  });

  it("S-RUN-12: an unexpected crash of the run processor is sent to CodexPi (Self)", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    configureRuns(env.engine, {
      beforeProcess: () => {
        throw new Error("plantage inattendu du moteur");
      },
    });
    const result = await env.tick();
    expect(result.state).toBe("blocked");
    const blocked = await env.run(run.id);
    expect(blocked.status).toBe("BLOCKED");
    expect(blocked.error).toContain("plantage inattendu");
    expect(blocked).toMatchObject({ block_code: "crash", blocked_stage: "PLAN_REVIEW" });
    expect(blocked.self_repair!.status).toBe("RUNNING");
    expect((await env.queueRow(blocked.self_repair!.queue_id)).content).toContain(
      "plantage inattendu du moteur",
    );
    // Once repaired, the same item is read again: the master's plan review is not lost.
    configureRuns(env.engine, {});
    await env.finishQueue(
      blocked.self_repair!.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"garde-fou","prompt_addendum":""}',
    );
    expect((await env.tick()).state).toBe("self_repair_processed");
    const resumed = await env.run(run.id);
    expect(resumed).toMatchObject({
      status: "RUNNING",
      stage: "PLAN_REVIEW",
      active_queue_id: run.active_queue_id,
    });
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    expect((await env.run(run.id)).stage).toBe("AGENT");
  });

  it("S-RUN-13: upgrade recovers a legacy block and rebuilds its supervisor stage", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, "Travail projet terminé avec preuves.");
    await env.tick();
    const reviewing = await env.run(run.id);
    expect(reviewing.stage).toBe("SUPERVISOR");
    const queue = await env.queueRow(reviewing.active_queue_id!);
    const stamp = env.clock.now();
    // What an older version left behind: no blocked stage, no self-repair, stage IDLE, finished_at set.
    await env.db
      .updateTable("prompt_queue")
      .set({
        status: "failed",
        error: "thread-store conflict: already has an active writer",
        finished_at: stamp,
      })
      .where("id", "=", queue.id)
      .execute();
    await env.db
      .updateTable("conversations")
      .set({ status: "failed", worker_pid: null, updated_at: stamp })
      .where("id", "=", queue.conversation_id)
      .execute();
    await env.db
      .updateTable("remediation_runs")
      .set({
        status: "BLOCKED",
        stage: "IDLE",
        error: "thread-store conflict: already has an active writer",
        finished_at: stamp,
        updated_at: stamp,
        blocked_stage: null,
        block_code: null,
      })
      .where("id", "=", run.id)
      .execute();
    await env.db
      .updateTable("remediation_step_runs")
      .set({ status: "BLOCKED", feedback: "thread-store conflict", updated_at: stamp })
      .where("run_id", "=", run.id)
      .where("step_id", "=", "step-one")
      .execute();

    // The upgraded process: a new engine on the same database.
    await env.engine.releaseLease();
    const upgraded = new Engine({
      config: env.config,
      db: env.db,
      clock: env.clock,
      host: env.engine.host,
      spawner: env.spawner,
      owner: "upgraded",
    });
    const result = await upgraded.tick();
    expect(result.state).toBe("self_repair_recovered");
    expect((result as { blocked_stage?: string }).blocked_stage).toBe("SUPERVISOR");
    const recovered = await getRun(upgraded, OWNER_ACTOR, run.id);
    expect(recovered.self_repair!.status).toBe("RUNNING");
    expect(recovered.self_repair!.blocked_stage).toBe("SUPERVISOR");
    expect(recovered.events.some((e) => e.kind === "self_repair.catchup_started")).toBe(true);
    expect((await upgraded.tick()).state).toBe("processed"); // caught up once

    // Its repair resumes the review (the agent's work is not replayed).
    await env.finishQueue(
      recovered.self_repair!.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"Écrivain unique garanti","prompt_addendum":""}',
    );
    expect((await upgraded.tick()).state).toBe("self_repair_processed");
    const resumed = await getRun(upgraded, OWNER_ACTOR, run.id);
    expect(resumed).toMatchObject({ status: "RUNNING", stage: "SUPERVISOR", finished_at: null });
    expect(resumed.steps[0]).toMatchObject({ status: "REVIEWING", attempts: 1 });
    expect((await env.queueRow(resumed.active_queue_id!)).content).toContain(
      "Reprends uniquement l’inspection",
    );
  });

  it("a self-repair without a verdict fails and leaves the run to its owner", async () => {
    env = await runEnv();
    await env.addSelf();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await blockAtReview(env, run.id, "Fait.", "Bloqué");
    const repair = (await env.run(run.id)).self_repair!;
    await env.finishQueue(repair.queue_id, 'CODEXPI_SELF_REPAIR {"decision":"ignore"}');
    expect((await env.tick()).state).toBe("self_repair_processed");
    const after = await env.run(run.id);
    expect(after).toMatchObject({ status: "BLOCKED", self_repair: { status: "FAILED" } });
    expect((await resumeRun(env.engine, OWNER_ACTOR)).status).toBe("RUNNING");
  });
});
