import { afterEach, describe, expect, it } from "vitest";
import { writeTransaction } from "../../../src/engine/database.js";
import { startRun } from "../../../src/engine/runs/index.js";
import { APPROVE_PLAN, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "./runEnv.js";

describe("autonomous runs: interrupted and continued items", () => {
  let env: RunEnv;
  afterEach(async () => env?.close());

  it("S-RUN-10: an interrupted supervisor restarts the review without replaying project work", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep("Aloe")]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    const conversationId = (await env.run(run.id)).steps[0]!.conversation_id!;
    await env.finishActive(run.id, "Déploiement réversible terminé avec mesures avant/après.");
    await env.tick();
    const interrupted = (await env.run(run.id)).active_queue_id!;
    await env.interrupt(interrupted);

    expect((await env.tick()).state).toBe("processed");
    const restarted = await env.run(run.id);
    expect(restarted.status).toBe("RUNNING");
    expect(restarted.stage).toBe("SUPERVISOR");
    expect(restarted.active_queue_id).not.toBe(interrupted);
    expect(restarted.steps[0]!.status).toBe("REVIEWING");
    expect(restarted.steps[0]!.attempts).toBe(1);
    expect(restarted.steps[0]!.conversation_id).toBe(conversationId);
    expect(restarted.self_repair).toBeNull();
    const retry = await env.queueRow(restarted.active_queue_id!);
    expect(retry.content).toContain("Reprends uniquement l’inspection");
    expect(retry.content).toContain("Ne relance aucune modification");
    expect(retry.conversation_id).toBe(run.master_conversation_id);
    expect(restarted.events.some((e) => e.kind === "master.review_restarted")).toBe(true);
    // Nothing was sent to the project's agent.
    expect(
      await env.db
        .selectFrom("prompt_queue")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .execute(),
    ).toHaveLength(1);
  });

  it("a review interrupted again and again finally blocks the run with the interrupted code", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, "Fait.");
    await env.tick();
    for (let i = 0; i < 3; i++) {
      await env.interrupt((await env.run(run.id)).active_queue_id!);
      await env.tick();
    }
    const blocked = await env.run(run.id);
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      block_code: "interrupted",
      blocked_stage: "SUPERVISOR",
    });
    expect(blocked.events.filter((e) => e.kind === "master.review_restarted")).toHaveLength(2);
  });

  it("an interrupted agent blocks the run; the owner's resume continues in the same conversation", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    const working = await env.run(run.id);
    await env.interrupt(working.active_queue_id!);
    expect((await env.tick()).state).toBe("blocked");
    expect(await env.run(run.id)).toMatchObject({
      status: "BLOCKED",
      block_code: "interrupted",
      blocked_stage: "AGENT",
    });
    const { resumeRun } = await import("../../../src/engine/runs/index.js");
    const resumed = await resumeRun(env.engine, OWNER_ACTOR);
    expect(resumed).toMatchObject({ status: "RUNNING", stage: "AGENT" });
    expect(resumed.steps[0]).toMatchObject({
      status: "CORRECTING",
      attempts: 2,
      conversation_id: working.steps[0]!.conversation_id,
    });
  });

  it("an agent waiting on a person's decision is not reviewed until the answer's item is done", async () => {
    env = await runEnv();
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    const working = await env.run(run.id);
    const conversationId = working.steps[0]!.conversation_id!;
    const asked =
      'Il me faut un choix. CODEXPI_DECISION {"question":"Quelle fenêtre ?","options":[{"id":"nuit","label":"La nuit"}]}';
    const queueId = await env.finishActive(run.id, asked);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversationId, queueId, "done", asked, null),
    ); // the worker's outcome hook
    await env.tick();
    expect((await env.run(run.id)).stage).toBe("AGENT"); // waits on the owner
    const { answerDecision, listDecisions } = await import("../../../src/engine/coordination/decisions.js");
    const [decision] = await listDecisions(env.db, OWNER_ACTOR);
    await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["nuit"], "");
    await env.tick();
    const followed = await env.run(run.id);
    expect(followed.stage).toBe("AGENT");
    expect(followed.active_queue_id).not.toBe(queueId);
    expect((await env.queueRow(followed.active_queue_id!)).origin_kind).toBe("decision_answer");
    await env.finishActive(run.id, "Fait la nuit.");
    await env.tick();
    const reviewing = await env.run(run.id);
    expect(reviewing.stage).toBe("SUPERVISOR");
    expect((await env.queueRow(reviewing.active_queue_id!)).content).toContain("Fait la nuit.");
  });
});
