import { afterEach, describe, expect, it } from "vitest";
import { ciFailureOf } from "../../src/forge/ciFailures.js";
import { ForgeCiTries } from "../../src/forge/store/ciTries.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { testEngine } from "../support/engine.js";
import { checkSuiteCompleted, pipelineHook, workflowRunCompleted } from "../support/forgeCiWebhooks.js";

// Issue 33, item 5, on both dialects: the project's CI-fix settings and the tries counted per pull
// request and failing commit (migration 0040); which deliveries are failed checks at all.

describe("CI fixes' settings and tries", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-28: a project's fix-ci setting is off with 2 tries until set, and keeps what is set; tries count once per pull request and commit, durably, apart for each pull request", async () => {
    env = await testEngine();
    const threads = new ForgeThreads(env.db);
    expect(await threads.settings(env.project.id)).toMatchObject({ fix_ci: "off", fix_ci_tries: 2 });
    await threads.setSettings(env.project.id, { channel_id: "C1" }, 1);
    expect(await threads.settings(env.project.id)).toMatchObject({ fix_ci: "off", fix_ci_tries: 2 });
    await threads.setSettings(env.project.id, { fix_ci: "on", fix_ci_tries: 5 }, 2);
    expect(await threads.settings(env.project.id)).toMatchObject({
      channel_id: "C1",
      fix_ci: "on",
      fix_ci_tries: 5,
    });

    const tries = new ForgeCiTries(env.db);
    const pr1 = "p:github:acme/widgets:pull#1";
    expect(await tries.count(pr1)).toBe(0);
    expect(await tries.tried(pr1, "sha-a")).toBe(false);
    await tries.record(pr1, "sha-a", "test", "q1", 3);
    await tries.record(pr1, "sha-a", "test", "q2", 4);
    expect(await tries.tried(pr1, "sha-a")).toBe(true);
    expect(await tries.count(pr1)).toBe(1);
    await tries.record(pr1, "sha-b", "test", "q3", 5);
    await tries.record("p:github:acme/widgets:pull#2", "sha-a", "test", "q4", 6);
    expect(await new ForgeCiTries(env.db).count(pr1)).toBe(2);
    expect(await tries.tried("p:github:acme/widgets:pull#2", "sha-b")).toBe(false);
  });

  it("S-FORGE-29: only completed runs that failed are failed checks (workflow_run, check_suite, GitLab's failed pipeline), with their pull requests; a success, a run still going, another event are not", () => {
    const run = workflowRunCompleted("acme/widgets", { id: 1, checkSuiteId: 2, sha: "abc", pulls: [3, 4] });
    expect(ciFailureOf("github", "workflow_run", run)).toMatchObject({
      repo: "acme/widgets",
      pulls: [3, 4],
      headSha: "abc",
      run: { kind: "workflow_run", id: 1 },
    });
    expect(
      ciFailureOf(
        "github",
        "check_suite",
        checkSuiteCompleted("acme/widgets", { id: 2, sha: "abc", pulls: [3] }),
      ),
    ).toMatchObject({ pulls: [3], run: { kind: "check_suite", id: 2 } });
    expect(
      ciFailureOf("gitlab", "Pipeline Hook", pipelineHook("group/app", { id: 9, sha: "def", iid: 4 })),
    ).toMatchObject({ repo: "group/app", pulls: [4], headSha: "def", run: { kind: "pipeline", id: 9 } });
    expect(
      ciFailureOf("gitlab", "Pipeline Hook", pipelineHook("group/app", { id: 9, sha: "d", iid: null })),
    ).toMatchObject({ pulls: [] });

    const passed = workflowRunCompleted("acme/widgets", {
      id: 1,
      checkSuiteId: 2,
      sha: "abc",
      pulls: [3],
      conclusion: "success",
    });
    expect(ciFailureOf("github", "workflow_run", passed)).toBeNull();
    expect(ciFailureOf("github", "workflow_run", { ...run, action: "requested" })).toBeNull();
    expect(ciFailureOf("github", "check_run", run)).toBeNull();
    const running = pipelineHook("group/app", { id: 9, sha: "d", iid: 4, status: "running" });
    expect(ciFailureOf("gitlab", "Pipeline Hook", running)).toBeNull();
    expect(
      ciFailureOf("gitlab", "Note Hook", pipelineHook("group/app", { id: 9, sha: "d", iid: 4 })),
    ).toBeNull();
  });
});
