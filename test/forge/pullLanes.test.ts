import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../src/engine/api/index.js";
import { testEngine } from "../support/engine.js";

// Issue 33, on both dialects: the conversation whose lane opened a pull request (what the forge
// front end asks when a failed check or a mention comes for a pull request it has no thread for).

describe("the conversation of a pull request a lane opened", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-59: is the lane's that recorded the pull request's number in that project, with its link (the latest when two did); another number, or another project, has none", async () => {
    env = await testEngine();
    const { db, project } = env;
    const lane = (id: string, pr: number | null, updatedAt: number) => ({
      conversation_id: id,
      project_id: project.id,
      path: `/data/lanes/${project.id}/${id}`,
      branch: `codexpi/work-${id}`,
      base_branch: "main",
      base_commit: "a".repeat(40),
      status: "active" as const,
      created_at: 1,
      updated_at: updatedAt,
      finished_at: null,
      pr_number: pr,
      pr_url: pr === null ? null : `https://github.example/acme/widgets/pull/${pr}`,
    });
    for (const id of ["c1", "c2", "c3"])
      await db
        .insertInto("conversations")
        .values({
          id,
          project_id: project.id,
          title: id,
          user_id: "UOWNER",
          worker_pid: null,
          codex_thread_id: null,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
    await db
      .insertInto("lanes")
      .values([lane("c1", 5, 10), lane("c2", 5, 20), lane("c3", null, 30)])
      .execute();
    const lanes = createEngineApi(env.engine).lanes;
    expect(await lanes.conversationOfPullRequest(project.id, 5)).toEqual({
      conversationId: "c2",
      url: "https://github.example/acme/widgets/pull/5",
    });
    expect(await lanes.conversationOfPullRequest(project.id, 6)).toBeNull();
    expect(await lanes.conversationOfPullRequest("another-project", 5)).toBeNull();
    await db.updateTable("lanes").set({ pr_number: 6 }).where("conversation_id", "=", "c3").execute();
    expect((await lanes.conversationOfPullRequest(project.id, 6))?.conversationId).toBe("c3");
  });
});
