/**
 * The worker's approvals seam (WorkerOptions.approvals), which the approvals feature fills in:
 * workers run in the test process so that a handler can be given, with the real Codex binary in
 * its jail (through the app-server) against the fake model.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/engine/codex/appServer/approvalTypes.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import type { WorkerSpawner } from "../../src/engine/dispatch/dispatcher.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { runWorker, type WorkerOptions } from "../../src/engine/worker/worker.js";
import { systemClock } from "../../src/engine/clock.js";
import { FAKE_KEY_ENV, FAKE_KEY_VALUE, makeCodexHome } from "../support/codexHome.js";
import { finished } from "../support/codexEngine.js";
import { tempDir, testConfig, testEngine } from "../support/engine.js";
import { functionCallOutputs, startFakeModel } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { removeTree } from "../support/removeTree.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An engine whose workers run in this process with the given options (CODEXPI_RUNNER as asked). */
async function inProcessWorkers(runner: "exec" | "app-server", options: WorkerOptions) {
  const fake = await startFakeModel();
  const home = await makeCodexHome(fake.url);
  const dir = tempDir();
  // In-process workers hand Codex the fake model's key from this process's environment.
  process.env[FAKE_KEY_ENV] = FAKE_KEY_VALUE;
  const config = testConfig(dir, { CODEX_HOME: home.dir, CODEXPI_RUNNER: runner });
  const running: Promise<unknown>[] = [];
  const spawner: WorkerSpawner = async (queueId, attempt) => {
    running.push(runWorker(t.engine, queueId, attempt, options));
    return { pid: process.pid };
  };
  const t = await testEngine({ config, clock: systemClock, spawner });
  await updateGlobalPolicy(
    t.db,
    t.clock,
    {
      max_concurrent: 2,
      load_pause_percent: 1000,
      memory_pause_percent: 100,
      background_start_hour: 0,
      background_end_hour: 0,
    },
    "test",
  );
  cleanups.push(async () => {
    await Promise.allSettled(running);
    await t.close();
    await fake.close();
    delete process.env[FAKE_KEY_ENV];
    fs.rmSync(home.dir, { recursive: true, force: true });
    await removeTree(dir);
  });
  return { ...t, fake };
}

const escalated = {
  kind: "shell",
  command: ["sh", "-c", "echo SEAM-RAN-$((6*7))"],
  extraArgs: { sandbox_permissions: "require_escalated", justification: "needs it" },
} as const;

describe("the worker's approvals seam", () => {
  it("with the app-server runner, the handler the worker is given answers the escalation: accepted, it runs", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const asked: Array<{ item: unknown; request: ApprovalRequest }> = [];
    const env = await inProcessWorkers("app-server", {
      approvals: (item) => async (request) => {
        asked.push({ item, request });
        return "accept";
      },
    });
    // Only a project whose admin chose `on-request` asks (feat-approvals).
    await env.db.updateTable("projects").set({ approval_mode: "on-request" }).execute();
    env.fake.enqueue(escalated, { kind: "text", text: "done" });
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.item).toMatchObject({
      queueId: item.id,
      conversationId: conversation.id,
      projectId: env.project.id,
    });
    expect(asked[0]!.request).toMatchObject({ kind: "command", reason: "needs it" });
    expect(JSON.stringify(functionCallOutputs(env.fake.requests[1]!))).toContain("SEAM-RAN-42");
  });

  it("with the app-server runner, a project that never asks (the default) refuses the escalation without asking the handler", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    let asked = 0;
    const env = await inProcessWorkers("app-server", {
      approvals: () => async () => {
        asked++;
        return "accept";
      },
    });
    env.fake.enqueue(escalated, { kind: "text", text: "done" });
    const { item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    expect(asked).toBe(0);
    expect(JSON.stringify(functionCallOutputs(env.fake.requests[1]!))).not.toContain("SEAM-RAN-42");
  });

  it("with the exec runner the handler is never asked (exec cannot ask): the escalation is refused", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    let asked = 0;
    const env = await inProcessWorkers("exec", {
      approvals: () => async () => {
        asked++;
        return "accept";
      },
    });
    env.fake.enqueue(escalated, { kind: "text", text: "done" });
    const { item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    expect(asked).toBe(0);
    expect(JSON.stringify(functionCallOutputs(env.fake.requests[1]!))).not.toContain("SEAM-RAN-42");
  });
});
