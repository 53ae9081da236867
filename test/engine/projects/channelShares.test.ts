import { afterEach, describe, expect, it } from "vitest";
import { ask } from "../../../src/engine/conversations/conversationService.js";
import {
  type Actor,
  channelsOpenToMembers,
  listProjects,
  mayPromptProject,
  projectForActor,
  shareProject,
  unshareProject,
} from "../../../src/engine/projects/index.js";
import { testEngine } from "../../support/engine.js";

// Issue 32, item 4, in the engine on both dialects: a project shared with a channel (its members
// read it, and prompt it with `prompt`), and a place's settings under a request's own options.
describe("a project shared with a channel, and a place's settings", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
  const MEMBER: Actor = { userId: "UMEMBER", isAdmin: false, channels: ["CTEAM"] };
  const OUTSIDER: Actor = { userId: "UOUT", isAdmin: false, channels: ["COTHER"] };

  it("S-CHAN-05: shared to read, a member lists it but may not prompt it; shared to prompt, they may; unshared, neither; an outsider never; only its owner or an admin shares", async () => {
    env = await testEngine();
    const clock = env.clock;
    expect(await listProjects(env.db, MEMBER)).toEqual([]);
    await expect(shareProject(env.db, clock, MEMBER, "demo", "CTEAM", true)).rejects.toMatchObject({
      reason: "project_not_found",
    });

    await shareProject(env.db, clock, OWNER, "demo", "CTEAM", false);
    expect(await channelsOpenToMembers(env.db)).toContain("CTEAM");
    expect((await listProjects(env.db, MEMBER)).map((p) => p.name)).toEqual(["demo"]);
    expect(await mayPromptProject(env.db, MEMBER, env.project)).toBe(false);
    await expect(projectForActor(env.db, MEMBER, "demo")).rejects.toMatchObject({
      reason: "project_read_only",
    });

    // Shared again, to prompt: the same row, widened.
    await shareProject(env.db, clock, OWNER, "demo", "CTEAM", true);
    expect(await mayPromptProject(env.db, MEMBER, env.project)).toBe(true);
    expect(await mayPromptProject(env.db, OUTSIDER, env.project)).toBe(false);
    expect(await listProjects(env.db, OUTSIDER)).toEqual([]);
    expect(await env.db.selectFrom("project_channel_shares").selectAll().execute()).toHaveLength(1);

    expect(await unshareProject(env.db, OWNER, "demo", "CTEAM")).toMatchObject({ removed: true });
    expect(await mayPromptProject(env.db, MEMBER, env.project)).toBe(false);
    expect(await listProjects(env.db, MEMBER)).toEqual([]);
    expect(await unshareProject(env.db, OWNER, "demo", "CTEAM")).toMatchObject({ removed: false });
  });

  it("S-CHAN-02: a place's model, effort and instructions apply to a request in its project, under the request's own options; a request in another project ignores them", async () => {
    env = await testEngine();
    await env.db
      .updateTable("projects")
      .set({ allowed_models: JSON.stringify(["gpt-5.5", "gpt-5.6-terra"]) })
      .execute();
    const other = await env.addProject({ name: "other", ownerId: "UOWNER" });
    const place = {
      projectId: env.project.id,
      model: "gpt-5.6-terra",
      effort: "high",
      instructions: "Be terse",
    };

    const plain = await ask(env.engine, OWNER, "demo", "first", { place });
    const own = await ask(env.engine, OWNER, "demo", "model=gpt-5.5 effort=low second", { place });
    const elsewhere = await ask(env.engine, OWNER, "other", "third", { place });
    const row = (id: string) =>
      env.db
        .selectFrom("conversations")
        .select(["model", "effort", "instructions"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    expect(await row(plain.conversation.id)).toEqual({
      model: "gpt-5.6-terra",
      effort: "high",
      instructions: "Be terse",
    });
    expect(await row(own.conversation.id)).toEqual({
      model: "gpt-5.5",
      effort: "low",
      instructions: "Be terse",
    });
    expect(await row(elsewhere.conversation.id)).toEqual({ model: null, effort: null, instructions: null });
    expect(other.id).not.toBe(env.project.id);

    // The admin narrows the list: the place's model is refused by name, nothing is queued.
    await env.db
      .updateTable("projects")
      .set({ allowed_models: JSON.stringify(["gpt-5.5"]) })
      .execute();
    const before = await env.db.selectFrom("prompt_queue").select("id").execute();
    await expect(ask(env.engine, OWNER, "demo", "fourth", { place })).rejects.toMatchObject({
      reason: "channel_model_not_allowed",
    });
    expect(await env.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(before.length);
  });
});
