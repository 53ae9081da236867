import { afterEach, describe, expect, it } from "vitest";
import {
  backgroundWindowOpen,
  concurrentAgentLimit,
  runtimePolicies,
  setProjectLimit,
  updateGlobalPolicy,
} from "../../../src/engine/projects/policies.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { testEngine } from "../../support/engine.js";

const POLICY = {
  max_concurrent: 2,
  load_pause_percent: 85,
  memory_pause_percent: 88,
  background_start_hour: 22,
  background_end_hour: 7,
};

describe("runtime policies", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("S-Q-02: the limit of a project is its override, else the global one; a legacy project uses the global and is listed", async () => {
    env = await testEngine();
    await updateGlobalPolicy(env.db, env.clock, POLICY, "UOWNER");
    expect(await concurrentAgentLimit(env.db, env.project.id)).toBe(2);

    const legacy = await env.addProject({ name: "Projet historique", ownerId: null });
    await startConversation(env.db, env.clock, legacy, "Analyse", "UOWNER");
    expect(await concurrentAgentLimit(env.db, legacy.id)).toBe(2);
    const listing = await runtimePolicies(env.db);
    expect(listing.global.max_concurrent).toBe(2);
    expect(listing.projects.some((p) => p.id === legacy.id && p.effective_max_concurrent === 2)).toBe(true);

    await setProjectLimit(env.db, env.clock, env.project.id, 1, "UOWNER");
    expect(await concurrentAgentLimit(env.db, env.project.id)).toBe(1);
    expect(await concurrentAgentLimit(env.db, legacy.id)).toBe(2);
    await setProjectLimit(env.db, env.clock, env.project.id, null, "UOWNER");
    expect(await concurrentAgentLimit(env.db, env.project.id)).toBe(2);
  });

  it("S-Q-02: a malformed policy is refused and the saved one is unchanged", async () => {
    env = await testEngine();
    await updateGlobalPolicy(env.db, env.clock, POLICY, "UOWNER");
    await expect(
      updateGlobalPolicy(env.db, env.clock, { ...POLICY, max_concurrent: 0 }, "UOWNER"),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      updateGlobalPolicy(env.db, env.clock, { ...POLICY, background_end_hour: 24 }, "UOWNER"),
    ).rejects.toMatchObject({ code: "invalid" });
    expect((await runtimePolicies(env.db)).global).toEqual(POLICY);
  });

  it("S-Q-03: the background window (22, 7) wraps midnight: open at 23 and 5, closed at 12", () => {
    expect(backgroundWindowOpen(22, 7, 23)).toBe(true);
    expect(backgroundWindowOpen(22, 7, 5)).toBe(true);
    expect(backgroundWindowOpen(22, 7, 12)).toBe(false);
  });

  it("S-Q-03: the window is half-open [start, end) and start == end means always open", () => {
    expect(backgroundWindowOpen(22, 7, 22)).toBe(true);
    expect(backgroundWindowOpen(22, 7, 7)).toBe(false);
    expect(backgroundWindowOpen(9, 17, 9)).toBe(true);
    expect(backgroundWindowOpen(9, 17, 17)).toBe(false);
    expect(backgroundWindowOpen(9, 17, 3)).toBe(false);
    for (let h = 0; h < 24; h++) expect(backgroundWindowOpen(0, 0, h)).toBe(true);
  });
});
