import { afterEach, describe, expect, it } from "vitest";
import { engineErrorText } from "../../../src/i18n/index.js";
import { cancelRun, resumeRun, startRun } from "../../../src/engine/runs/index.js";
import { APPROVE_PLAN, OWNER, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "./runEnv.js";

/** Plan approved, agent done, master blocks: the seeds' way to a blocked step. */
async function blockedAtReview(
  env: RunEnv,
  plan = [planStep()],
  agent = "Accès technique indisponible.",
  feedback = "Canal manquant",
) {
  const run = await startRun(env.engine, OWNER_ACTOR, plan);
  await env.finishActive(run.id, APPROVE_PLAN);
  await env.tick();
  const conversationId = (await env.run(run.id)).steps[0]!.conversation_id!;
  await env.finishActive(run.id, agent);
  await env.tick();
  await env.finishActive(run.id, `CODEXPI_SUPERVISION {"decision":"block","feedback":"${feedback}"}`);
  await env.tick();
  return { runId: run.id, conversationId };
}

describe("autonomous runs: the owner resumes a blocked run", () => {
  let env: RunEnv;
  afterEach(async () => env?.close());

  it("S-RUN-03: a blocked run resumes in the existing project conversation", async () => {
    env = await runEnv();
    const { runId, conversationId } = await blockedAtReview(env);
    const blocked = await env.run(runId);
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      stage: "IDLE",
      blocked_stage: "SUPERVISOR",
      block_code: "master_block",
      error: "Canal manquant",
      self_repair: null,
    });
    expect(blocked.steps[0]).toMatchObject({
      status: "BLOCKED",
      feedback: "Canal manquant",
      finished_at: null,
    });

    const resumed = await resumeRun(env.engine, OWNER_ACTOR);
    expect(resumed.status).toBe("RUNNING");
    expect(resumed.stage).toBe("AGENT");
    expect(resumed.steps[0]!.status).toBe("CORRECTING");
    expect(resumed.steps[0]!.conversation_id).toBe(conversationId);
    expect(resumed.steps[0]!.attempts).toBe(2);
    expect(resumed.events.some((e) => e.kind === "run.resumed")).toBe(true);
    const queued = await env.queueRow(resumed.active_queue_id!);
    expect(queued.conversation_id).toBe(conversationId);
    expect(queued.content).toContain("Canal manquant");
    // Resuming twice is refused: the run is no longer blocked.
    await expect(resumeRun(env.engine, OWNER_ACTOR)).rejects.toMatchObject({
      code: "conflict",
      reason: "run_not_blocked",
    });
  });

  it("S-RUN-04: resume with a revised plan rebases prompts without replacing threads or permissions", async () => {
    env = await runEnv();
    const original = planStep();
    const { runId, conversationId } = await blockedAtReview(
      env,
      [original],
      "Certaines métriques sont refusées par le noyau.",
      "Critère impossible",
    );
    await env.db
      .updateTable("remediation_runs")
      .set({ correction_round: 3 })
      .where("id", "=", runId)
      .execute();
    const fullAccessBefore = (
      await env.db
        .selectFrom("projects")
        .select("full_access")
        .where("id", "=", env.target.id)
        .executeTakeFirstOrThrow()
    ).full_access;
    const revised = {
      ...original,
      prompt: `${original.prompt} Accepter une couverture explicitement qualifiée sans modifier les droits.`,
    };
    const resumed = await resumeRun(env.engine, OWNER_ACTOR, { plan: [revised] });
    expect(resumed.status).toBe("RUNNING");
    expect(resumed.correction_round).toBe(0);
    expect(resumed.steps[0]!.prompt).toBe(revised.prompt);
    expect(resumed.steps[0]!.conversation_id).toBe(conversationId);
    expect((await env.queueRow(resumed.active_queue_id!)).content).toContain(revised.prompt);
    const event = resumed.events.find((e) => e.kind === "run.resumed");
    expect(event?.details.plan_rebased).toBe(true);
    expect(
      (
        await env.db
          .selectFrom("projects")
          .select("full_access")
          .where("id", "=", env.target.id)
          .executeTakeFirstOrThrow()
      ).full_access,
    ).toBe(fullAccessBefore);
  });

  it("S-RUN-05: a revised plan may not change order, target or risk", async () => {
    env = await runEnv();
    await env.addProject({ name: "Aloe", ownerId: OWNER });
    const { runId } = await blockedAtReview(env, [planStep()], "Résultat incomplet.", "Étape bloquée");
    expect((await env.run(runId)).status).toBe("BLOCKED");
    for (const changed of [
      planStep("NASflix", { risk: "production" }),
      planStep("Aloe", { aliases: [] }),
      planStep("NASflix", { order: 2 }),
    ]) {
      const refused = await resumeRun(env.engine, OWNER_ACTOR, { plan: [changed] }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "conflict", reason: "run_rebase_refused" });
      expect(engineErrorText("fr", refused as never)).toContain("ordre, la cible ou le risque");
    }
    const still = await env.run(runId);
    expect(still.status).toBe("BLOCKED");
    expect(still.steps[0]!.prompt).toBe(planStep().prompt); // nothing was half-applied
  });

  it("only the owner or an admin may resume or cancel; anyone else gets not_found", async () => {
    env = await runEnv();
    const { runId } = await blockedAtReview(env);
    const stranger = { userId: "USTRANGER", isAdmin: false };
    await expect(resumeRun(env.engine, stranger)).rejects.toMatchObject({ code: "not_found" });
    await expect(cancelRun(env.engine, stranger)).rejects.toMatchObject({ code: "not_found" });
    const admin = { userId: "UADMIN", isAdmin: true };
    expect((await resumeRun(env.engine, admin, { runId })).status).toBe("RUNNING");
    const cancelled = await cancelRun(env.engine, admin, runId);
    expect(cancelled).toMatchObject({ status: "CANCELLED", stage: "IDLE" });
    expect(cancelled.finished_at).not.toBeNull();
    // The agent's queued prompt is stopped, and the slot is free again.
    const stopped = await env.queueRow(cancelled.active_queue_id!);
    expect(stopped.status === "cancelled" || stopped.cancel_requested_at !== null).toBe(true);
    expect((await startRun(env.engine, OWNER_ACTOR, [planStep()])).status).toBe("RUNNING");
  });
});
