import type { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine/engine.js";
import { approveDraft, createOrchestration } from "../../../src/engine/orchestrations/index.js";
import { GIT_CLAIM_MS } from "../../../src/engine/orchestrations/effects.js";
import { OWNER_ACTOR, completedOutput } from "../../support/coordination.js";
import { loggingDatabase, planned, tableScans } from "../../support/queryPlans.js";
import { APP_TEST, disposableRepository } from "./repo.js";

/**
 * The orchestrations' tick step costs what live orchestrations cost, not what history costs:
 * with finished ones in the database, none of its queries scans a whole table.
 */
describe("orchestrations tick query plans", () => {
  let env: Awaited<ReturnType<typeof disposableRepository>>;
  afterEach(async () => env?.close());

  it("no query of the orchestrations step scans a whole table", async () => {
    env = await disposableRepository();
    const input = {
      project_id: env.projectId,
      name: "Plan",
      request: "Écrire approved.",
      acceptance_criteria: ["approved"],
      tests: [APP_TEST],
    };
    for (let i = 0; i < 20; i++) {
      const o = await createOrchestration(env.engine, OWNER_ACTOR, input);
      await env.db
        .updateTable("orchestrations")
        .set({ status: i % 2 ? "MERGED" : "CANCELLED" })
        .where("id", "=", o.id)
        .execute();
    }
    const live = await createOrchestration(env.engine, OWNER_ACTOR, input);
    const finished = await approveDraft(env.engine, OWNER_ACTOR, live.id, live.draft_hash);
    await completedOutput(env.db, finished.conversation_id!, finished.queue_id!, "fait", env.clock.now());
    const stuck = await createOrchestration(env.engine, OWNER_ACTOR, input);
    await env.db
      .updateTable("orchestrations")
      .set({ status: "VERIFYING", claim_token: "dead", claim_expires_at: env.clock.now() })
      .where("id", "=", stuck.id)
      .execute();
    env.clock.advance(GIT_CLAIM_MS);

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
    const result = await engine.tick();
    await logged.destroy();
    expect(result).toMatchObject({
      state: "processed",
      orchestrations_advanced: 1,
      orchestrations_recovered: 1,
    });

    const statements = queries.filter((q) => planned(q) && !/^\s*insert into "outbox"/i.test(q.sql));
    expect(statements.some((q) => q.sql.includes('"orchestrations"'))).toBe(true);
    const scans = await tableScans(env, statements);
    expect(scans).toEqual([]);
  });
});
