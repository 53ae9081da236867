import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { finishItem, INTERRUPTED_WORKER_REASON } from "../../../src/engine/conversations/outcome.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { SPAWN_GRACE_MS } from "../../../src/engine/dispatch/reaper.js";
import { stopConversation } from "../../../src/engine/conversations/stop.js";
import { testEngine } from "../../support/engine.js";

function sleeper() {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  return child;
}

describe("reaper and outcomes", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  const children: Array<ReturnType<typeof sleeper>> = [];
  afterEach(async () => {
    for (const c of children.splice(0)) c.kill("SIGKILL");
    await env?.close();
  });

  async function runningItemWithWorker(pid: number, startTime: string | null) {
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    await env.engine.dispatch();
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: pid, worker_start_time: startTime })
      .where("id", "=", item.id)
      .execute();
    return { conversation, item };
  }

  it("a running item whose worker is gone is failed as interrupted; a live worker's is left alone (control)", async () => {
    env = await testEngine();
    const alive = sleeper();
    const dead = sleeper();
    children.push(alive, dead);
    await new Promise((r) => setTimeout(r, 50));
    const live = await runningItemWithWorker(alive.pid!, processStartTime(alive.pid!));
    const other = await env.addProject({ name: "other", ownerId: "U" });
    const { item: lostItem } = await startConversation(env.db, env.clock, other, "work", "U");
    await env.engine.dispatch();
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: dead.pid!, worker_start_time: processStartTime(dead.pid!) })
      .where("id", "=", lostItem.id)
      .execute();
    dead.kill("SIGKILL");
    await new Promise((r) => dead.once("exit", r));

    const result = await env.engine.tick();
    expect(result).toMatchObject({ state: "processed", reaped: [lostItem.id] });
    const lost = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", lostItem.id)
      .executeTakeFirstOrThrow();
    expect(lost).toMatchObject({
      status: "failed",
      error_code: "interrupted",
      error: INTERRUPTED_WORKER_REASON,
    });
    const kept = await env.db
      .selectFrom("prompt_queue")
      .select("status")
      .where("id", "=", live.item.id)
      .executeTakeFirstOrThrow();
    expect(kept.status).toBe("running");
  });

  it("a reused pid is not mistaken for the worker: the start time must match too", async () => {
    env = await testEngine();
    const impostor = sleeper();
    children.push(impostor);
    await new Promise((r) => setTimeout(r, 50));
    const { item } = await runningItemWithWorker(impostor.pid!, "1"); // same pid, another start time
    expect((await env.engine.tick()) as Record<string, unknown>).toMatchObject({ reaped: [item.id] });
  });

  it("an item claimed but never picked up by a worker is reaped after the spawn grace period", async () => {
    env = await testEngine();
    const { item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    await env.engine.dispatch();
    await env.db.updateTable("prompt_queue").set({ worker_pid: null }).where("id", "=", item.id).execute();
    expect(await env.engine.tick()).toMatchObject({ reaped: [] });
    env.clock.advance(SPAWN_GRACE_MS + 1);
    expect(await env.engine.tick()).toMatchObject({ reaped: [item.id] });
  });

  it("the final write is fenced: a late worker cannot overwrite a reaped item", async () => {
    env = await testEngine();
    const { item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    const [claim] = (await env.engine.dispatch()).started;
    const reaped = await writeTransaction(env.db, (trx) =>
      finishItem(trx, env.clock, env.engine.hook, claim!, {
        status: "failed",
        content: null,
        error: INTERRUPTED_WORKER_REASON,
        errorCode: "interrupted",
      }),
    );
    const late = await writeTransaction(env.db, (trx) =>
      finishItem(trx, env.clock, env.engine.hook, claim!, {
        status: "done",
        content: "late answer",
        error: null,
        errorCode: null,
      }),
    );
    expect([reaped, late]).toEqual([true, false]);
    const row = await env.db
      .selectFrom("prompt_queue")
      .select(["status", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", error_code: "interrupted" });
    const answers = await env.db
      .selectFrom("messages")
      .select("id")
      .where("queue_id", "=", item.id)
      .where("role", "=", "assistant")
      .execute();
    expect(answers).toHaveLength(0);
  });

  it("a done outcome writes status, the assistant message with its queue id, and the finished event together", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    const [claim] = (await env.engine.dispatch()).started;
    await writeTransaction(env.db, (trx) =>
      finishItem(trx, env.clock, env.engine.hook, claim!, {
        status: "done",
        content: "All good",
        error: null,
        errorCode: null,
        usage: { input_tokens: 3 },
        files: ["a.txt"],
      }),
    );
    const msg = await env.db
      .selectFrom("messages")
      .selectAll()
      .where("queue_id", "=", item.id)
      .where("role", "=", "assistant")
      .executeTakeFirstOrThrow();
    expect(msg.content).toBe("All good");
    expect(JSON.parse(msg.metadata)).toMatchObject({
      queue_id: item.id,
      files: ["a.txt"],
      usage: { input_tokens: 3 },
    });
    const conv = await env.db
      .selectFrom("conversations")
      .select("status")
      .where("id", "=", conversation.id)
      .executeTakeFirstOrThrow();
    expect(conv.status).toBe("completed");
    const kinds = (await env.db.selectFrom("outbox").select("kind").orderBy("id").execute()).map(
      (e) => e.kind,
    );
    expect(kinds).toEqual([
      "conversation.queued",
      "conversation.started",
      "conversation.finished",
      "agent.outcome",
    ]);
  });

  it("the outcome hook reports the markers an agent wrote", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(
        trx,
        conversation.id,
        item.id,
        "done",
        'CODEXPI_DECISION {"question":"Quelle option ?","options":[{"id":"a","label":"A"}]}',
        null,
      ),
    );
    const event = await env.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "agent.outcome")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload)).toMatchObject({ queueId: item.id, markers: ["decision"] });
  });

  it("stop cancels queued items at once and flags the running one for its worker", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "first", "U");
    await env.engine.dispatch();
    const { enqueue } = await import("../../../src/engine/conversations/conversations.js");
    const queued = await enqueue(env.db, env.clock, conversation.id, "second");
    expect(await stopConversation(env.engine, conversation.id)).toEqual({
      cancelledQueued: 1,
      stoppingRunning: 1,
    });
    const rows = await env.db
      .selectFrom("prompt_queue")
      .select(["id", "status", "cancel_requested_at"])
      .orderBy("seq")
      .execute();
    expect(rows).toEqual([
      { id: item.id, status: "running", cancel_requested_at: env.clock.now() },
      { id: queued.id, status: "cancelled", cancel_requested_at: null },
    ]);
    // the worker is gone: the reaper records the stop as a cancel, not as an interruption
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: 999_999_9, worker_start_time: "1" })
      .where("id", "=", item.id)
      .execute();
    await env.engine.tick();
    const stopped = await env.db
      .selectFrom("prompt_queue")
      .select(["status", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(stopped).toEqual({ status: "cancelled", error_code: "cancelled" });
    expect(await stopConversation(env.engine, conversation.id)).toEqual({
      cancelledQueued: 0,
      stoppingRunning: 0,
    });
  });
});
