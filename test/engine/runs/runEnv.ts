import fs from "node:fs";
import path from "node:path";
import { newId } from "../../../src/engine/ids.js";
import { INTERRUPTED_WORKER_REASON } from "../../../src/engine/conversations/outcome.js";
import { getRun } from "../../../src/engine/runs/index.js";
import { completedOutput, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { testEngine } from "../../support/engine.js";

export { OWNER, OWNER_ACTOR };

/** The seed's plan step (its prompt is long on purpose, as in the seed). */
export function planStep(target = "NASflix", overrides: Record<string, unknown> = {}) {
  return {
    id: "step-one",
    order: 1,
    phase: 1,
    phaseLabel: "Mesurer",
    target,
    aliases: ["NASFLIX"],
    title: "Réduire la charge",
    summary: "Mesurer puis corriger la charge du projet.",
    risk: "code",
    prompt:
      "Inspecter les traitements de fond, appliquer une correction bornée et vérifier par des tests reproductibles. "
        .repeat(2)
        .trim(),
    ...overrides,
  };
}

export const APPROVE_PLAN = 'CODEXPI_SUPERVISION {"decision":"approve","feedback":"Plan valide"}';

/**
 * The seed's environment: the master agent "Agent maître" (execution group `__global_agent__`,
 * no owner), the owner's project "NASflix"; `addSelf()` adds "CodexPi (Self)" (role self).
 */
export async function runEnv() {
  const env = await testEngine();
  const masterDir = path.join(env.dir, "master");
  fs.mkdirSync(masterDir);
  const masterId = newId();
  await env.db
    .insertInto("projects")
    .values({
      id: masterId,
      name: "Agent maître",
      path: masterDir,
      owner_id: null,
      full_access: 1,
      execution_group: "__global_agent__",
      merge_confirmation_required: 0,
      channel_id: null,
      role: "project",
      created_at: env.clock.now(),
    })
    .execute();
  const target = await env.addProject({ name: "NASflix", ownerId: OWNER });
  const run = (runId: string) => getRun(env.engine, OWNER_ACTOR, runId);
  const queueRow = (queueId: string) =>
    env.db.selectFrom("prompt_queue").selectAll().where("id", "=", queueId).executeTakeFirstOrThrow();
  return {
    ...env,
    masterId,
    target,
    run,
    queueRow,
    async addSelf() {
      const dir = path.join(env.dir, "codexpi-self");
      fs.mkdirSync(dir);
      const id = newId();
      await env.db
        .insertInto("projects")
        .values({
          id,
          name: "CodexPi (Self)",
          path: dir,
          owner_id: OWNER,
          full_access: 1,
          execution_group: null,
          merge_confirmation_required: 0,
          channel_id: null,
          role: "self",
          created_at: env.clock.now(),
        })
        .execute();
      return id;
    },
    /** Finishes an item as the seeds do: done + the assistant message, no outcome hook. */
    async finishQueue(queueId: string, content: string) {
      const q = await queueRow(queueId);
      await completedOutput(env.db, q.conversation_id, queueId, content, env.clock.now());
      return queueId;
    },
    async finishActive(runId: string, content: string) {
      const { active_queue_id } = await run(runId);
      const q = await queueRow(active_queue_id!);
      await completedOutput(env.db, q.conversation_id, q.id, content, env.clock.now());
      return q.id;
    },
    /** The worker vanished: failed with the interrupted reason and code. */
    async interrupt(queueId: string) {
      await env.db
        .updateTable("prompt_queue")
        .set({
          status: "failed",
          error: INTERRUPTED_WORKER_REASON,
          error_code: "interrupted",
          finished_at: env.clock.now(),
        })
        .where("id", "=", queueId)
        .execute();
    },
    async tick() {
      env.clock.advance(1000);
      return env.engine.tick();
    },
  };
}

export type RunEnv = Awaited<ReturnType<typeof runEnv>>;
