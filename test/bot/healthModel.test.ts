import { afterEach, describe, expect, it } from "vitest";
import { Health } from "../../src/bot/health.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { recordModelProbe } from "../../src/engine/system/index.js";
import { completedOutput } from "../support/coordination.js";
import { testEngine } from "../support/engine.js";

// What /healthz says of the model (issue 20): nothing proven yet is "unchecked", not "ok"; a failed
// doctor probe is a failing check until a passed probe or a completed turn proves otherwise.
describe("health of the model", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("S-FH-04: a completed turn proves the model after a failed probe; a failed turn does not", async () => {
    env = await testEngine();
    await env.engine.tick();
    const health = () => new Health(env.engine, [], 30_000, { minFreeBytes: 1 }).report();
    const fresh = await health();
    expect(fresh.model).toEqual({ state: "unchecked", checked_at: null, by: null });
    expect(fresh.failing).not.toContain("model");
    const probedAt = Date.now();
    recordModelProbe(env.config.dataDir, { ok: false, at: probedAt });
    expect((await health()).failing).toContain("model");
    // A turn that failed proves nothing: the check still fails.
    const failed = await startConversation(env.db, env.clock, env.project, "hello", "U1");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "failed", finished_at: probedAt + 1 })
      .where("id", "=", failed.item.id)
      .execute();
    expect((await health()).model.state).toBe("failing");
    // One that completed, after the probe, does.
    const done = await startConversation(env.db, env.clock, env.project, "again", "U1");
    await completedOutput(env.db, done.conversation.id, done.item.id, "ok", probedAt + 2);
    const proven = await health();
    expect(proven.model).toEqual({ state: "ok", checked_at: probedAt + 2, by: "turn" });
    expect(proven.failing).not.toContain("model");
    // A newer failed probe is the newest proof again.
    recordModelProbe(env.config.dataDir, { ok: false, at: probedAt + 3 });
    expect((await health()).model.state).toBe("failing");
    expect(await new Health(env.engine).metrics()).toMatch(/^codexpi_model_up 0$/m);
  });
});
