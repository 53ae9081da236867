/**
 * Steering (issue 10): a person's follow-up written while the conversation's turn runs on the
 * app-server runner goes into that turn (`turn/steer`) when the project allows it. Workers run in
 * this process (their outcome write is a seam), with the real Codex binary in its jail against the
 * fake model.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { followUp, loadConversation } from "../../src/engine/conversations/conversationService.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import type { WorkerSpawner } from "../../src/engine/dispatch/dispatcher.js";
import { finishItem } from "../../src/engine/conversations/outcome.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { setProjectSteer } from "../../src/engine/projects/index.js";
import { runWorker, type WorkerOptions } from "../../src/engine/worker/worker.js";
import { systemClock } from "../../src/engine/clock.js";
import { writeTransaction } from "../../src/engine/database.js";
import { FAKE_KEY_ENV, FAKE_KEY_VALUE, makeCodexHome } from "../support/codexHome.js";
import { finished, until } from "../support/codexEngine.js";
import { tempDir, testConfig, testEngine } from "../support/engine.js";
import { inputText, startFakeModel } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { removeTree } from "../support/removeTree.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const OWNER = { userId: "UOWNER", isAdmin: false };

/** An engine whose workers run in this process, with the runner asked for. */
async function inProcessWorkers(runner: "exec" | "app-server", options: WorkerOptions = {}) {
  const fake = await startFakeModel();
  const home = await makeCodexHome(fake.url);
  const dir = tempDir();
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

type Env = Awaited<ReturnType<typeof inProcessWorkers>>;

/** Starts a turn that runs a command for a while, and waits until it can be steered. */
async function busyTurn(env: Env, seconds: number) {
  env.fake.enqueue(
    { kind: "shell", command: ["sleep", String(seconds)] },
    { kind: "text", text: "first answer" },
  );
  const started = await startConversation(env.db, env.clock, env.project, "start the work", "UOWNER");
  await env.engine.dispatch();
  return started;
}

const steerable = (env: Env, queueId: string) =>
  until(
    async () =>
      (
        await env.db
          .selectFrom("prompt_queue")
          .select("steer_turn_id")
          .where("id", "=", queueId)
          .executeTakeFirst()
      )?.steer_turn_id,
    30_000,
    "the turn to be steerable",
  );

const item = (env: Env, id: string) =>
  env.db.selectFrom("prompt_queue").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const laterInputs = (env: Env) => env.fake.requests.slice(1).map(inputText).join("\n");

describe("steering a running turn", () => {
  it("the owner's follow-up reaches the model's next request in the same turn and never runs as a turn of its own; a reader's reply is refused", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const env = await inProcessWorkers("app-server");
    await setProjectSteer(env.db, OWNER, env.project.name, true);
    const { conversation, item: first } = await busyTurn(env, 3);
    await steerable(env, first.id);

    // A channel's member may read this conversation, never prompt it: no steer, nothing queued.
    await env.db.updateTable("projects").set({ visibility: "channel", channel_id: "CPROJ" }).execute();
    const c = await loadConversation(env.engine, conversation.id);
    const reader = { userId: "UREADER", isAdmin: false, channels: ["CPROJ"] };
    await expect(followUp(env.engine, reader, c, "READER-NOTE-5531")).rejects.toMatchObject({
      code: "forbidden",
    });

    const { item: note } = await followUp(env.engine, OWNER, c, "STEER-NOTE-7741: mention the README too");
    expect(await finished(env.db, first.id)).toMatchObject({ status: "done", steer_turn_id: null });
    const steered = await item(env, note.id);
    expect(steered).toMatchObject({ status: "steered", steered_into: first.id });
    // Recorded, then taken by the worker's next poll (every 500 ms) and marked: well within a second or so.
    const latency = (steered.finished_at ?? Number.POSITIVE_INFINITY) - note.created_at;
    console.info(`steer latency: ${latency} ms from the follow-up's record to its mark`);
    expect(latency).toBeLessThan(1_500);
    expect(laterInputs(env)).toContain("STEER-NOTE-7741");
    expect(inputText(env.fake.requests[0]!)).not.toContain("STEER-NOTE-7741");
    expect(env.fake.requests.map(inputText).join("\n")).not.toContain("READER-NOTE-5531");

    // Nothing else runs: the steered follow-up is not a turn of its own.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(env.fake.requests).toHaveLength(2);
    const items = await env.db.selectFrom("prompt_queue").select(["id", "status"]).orderBy("seq").execute();
    expect(items).toEqual([
      { id: first.id, status: "done" },
      { id: note.id, status: "steered" },
    ]);
    const events = await env.db.selectFrom("outbox").select(["kind", "payload"]).execute();
    expect(events.filter((e) => e.kind === "conversation.steered").map((e) => JSON.parse(e.payload))).toEqual(
      [expect.objectContaining({ conversationId: conversation.id, queueId: note.id })],
    );
  });

  it("with steering off (the default), the same follow-up waits and runs as the next turn (control)", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const env = await inProcessWorkers("app-server");
    const { conversation, item: first } = await busyTurn(env, 2);
    await until(async () => (await item(env, first.id)).codex_pid, 30_000, "codex to start");
    const c = await loadConversation(env.engine, conversation.id);
    env.fake.enqueue({ kind: "text", text: "second answer" });
    const { item: note } = await followUp(env.engine, OWNER, c, "STEER-NOTE-7741: mention the README too");
    expect(await finished(env.db, first.id)).toMatchObject({ status: "done" });
    expect(await finished(env.db, note.id)).toMatchObject({ status: "done", steered_into: null });
    expect(inputText(env.fake.requests[1]!)).not.toContain("STEER-NOTE-7741");
    expect(env.fake.requests).toHaveLength(3);
    expect(inputText(env.fake.requests[2]!)).toContain("STEER-NOTE-7741");
  });

  it("with the exec runner, steering on changes nothing: the follow-up runs as the next turn (exec cannot be steered)", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    const env = await inProcessWorkers("exec");
    await setProjectSteer(env.db, OWNER, env.project.name, true);
    const { conversation, item: first } = await busyTurn(env, 2);
    await until(async () => (await item(env, first.id)).codex_pid, 30_000, "codex to start");
    const c = await loadConversation(env.engine, conversation.id);
    env.fake.enqueue({ kind: "text", text: "second answer" });
    const { item: note } = await followUp(env.engine, OWNER, c, "STEER-NOTE-7741");
    expect(await finished(env.db, first.id)).toMatchObject({ status: "done", steer_turn_id: null });
    expect(await finished(env.db, note.id)).toMatchObject({ status: "done", steered_into: null });
    expect(inputText(env.fake.requests[1]!)).not.toContain("STEER-NOTE-7741");
    expect(inputText(env.fake.requests[2]!)).toContain("STEER-NOTE-7741");
  });

  it("a follow-up arriving just as the turn ends is neither lost nor doubled: it runs as the next turn", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    let late: string | null = null;
    let env: Env;
    const options: WorkerOptions = {
      // The turn is over, its outcome not yet written: the person's reply arrives now.
      writeOutcome: async (it, outcome) => {
        if (!late) {
          const c = await loadConversation(env.engine, conversationId);
          late = (await followUp(env.engine, OWNER, c, "LATE-NOTE-3319")).item.id;
        }
        return writeTransaction(env.db, (trx) => finishItem(trx, env.clock, env.engine.hook, it, outcome));
      },
    };
    env = await inProcessWorkers("app-server", options);
    await setProjectSteer(env.db, OWNER, env.project.name, true);
    env.fake.enqueue({ kind: "text", text: "first answer" }, { kind: "text", text: "second answer" });
    const { conversation, item: first } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "go",
      "UOWNER",
    );
    const conversationId = conversation.id;
    await env.engine.dispatch();
    expect(await finished(env.db, first.id)).toMatchObject({ status: "done" });
    await until(async () => late, 10_000, "the late follow-up");
    expect(await finished(env.db, late!)).toMatchObject({ status: "done", steered_into: null });
    expect(env.fake.requests).toHaveLength(2);
    expect(inputText(env.fake.requests[0]!)).not.toContain("LATE-NOTE-3319");
    expect(inputText(env.fake.requests[1]!)).toContain("LATE-NOTE-3319");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(env.fake.requests).toHaveLength(2);
  });
});
