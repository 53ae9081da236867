import type { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine/engine.js";
import { cancelRun, runTick, startRun } from "../../../src/engine/runs/index.js";
import { loggingDatabase, planned, tableScans } from "../../support/queryPlans.js";
import { APPROVE_PLAN, OWNER_ACTOR, planStep, runEnv, type RunEnv } from "./runEnv.js";

/** Runs the runs' tick step on a logging connection and returns every statement it ran. */
async function loggedRunTick(env: RunEnv): Promise<{ queries: CompiledQuery[]; state: string }> {
  const queries: CompiledQuery[] = [];
  const logged = loggingDatabase(env.config, queries);
  const engine = new Engine({
    config: env.config,
    db: logged,
    clock: env.clock,
    host: env.engine.host,
    spawner: env.spawner,
    owner: "planner",
  });
  const { state } = await runTick(engine);
  await logged.destroy();
  return { queries, state };
}

function scansOf(env: RunEnv, queries: CompiledQuery[]): Promise<string[]> {
  return tableScans(env, queries.filter(planned));
}

/** Finished runs: the history a tick must not pay for. */
async function history(env: RunEnv, n: number) {
  for (let i = 0; i < n; i++) {
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await cancelRun(env.engine, OWNER_ACTOR, run.id);
  }
}

describe("runs tick query plans", () => {
  let env: RunEnv;
  afterEach(async () => env?.close());

  it("with no active run, the runs' tick step makes one indexed lookup of runs by status", async () => {
    env = await runEnv();
    await history(env, 6);
    const { queries, state } = await loggedRunTick(env);
    expect(state).toBe("idle");
    expect(queries).toHaveLength(1);
    expect(queries[0]!.sql).toMatch(/from "remediation_runs" where "status" in/);
    expect(await scansOf(env, queries)).toEqual([]);
  });

  it("advancing, blocking and repairing an active run scans no whole table", async () => {
    env = await runEnv();
    await env.addSelf();
    await history(env, 4);
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep()]);
    const all: CompiledQuery[] = [];
    const step = async (expected: string) => {
      const { queries, state } = await loggedRunTick(env);
      expect(state).toBe(expected);
      all.push(...queries);
    };
    await env.finishActive(run.id, APPROVE_PLAN);
    await step("processed"); // plan approved → agent
    await env.finishActive(run.id, "Fait.");
    await step("processed"); // agent done → review
    await env.finishActive(run.id, 'CODEXPI_SUPERVISION {"decision":"block","feedback":"Bloqué"}');
    await step("blocked"); // block → self-repair
    const repair = (await env.run(run.id)).self_repair!;
    await env.finishQueue(
      repair.queue_id,
      'CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"ok","prompt_addendum":"Précision."}',
    );
    await step("self_repair_processed"); // fixed → resume at the agent
    expect(all.length).toBeGreaterThan(20);
    expect(await scansOf(env, all)).toEqual([]);
  });
});
