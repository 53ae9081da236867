import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { keepOutcome, keptOutcomeFile, retryWrite } from "../../../src/engine/conversations/keptOutcome.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { completedTurnAnswer, recoverOutcome } from "../../../src/engine/conversations/recovery.js";
import { projectCodexState } from "../../../src/engine/isolation/codexJail.js";
import { tempDir, testEngine } from "../../support/engine.js";

const line = (at: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: at, type: "event_msg", payload });

describe("recovering the answer of a lost worker", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("the reaper records the outcome a dead worker kept beside its log instead of calling it interrupted", async () => {
    env = await testEngine();
    const { item } = await startConversation(env.db, env.clock, env.project, "work", "U");
    await env.engine.dispatch();
    const child = spawn("sleep", ["30"]);
    const start = processStartTime(child.pid as number);
    child.kill("SIGKILL");
    await once(child, "exit");
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: child.pid as number, worker_start_time: start })
      .where("id", "=", item.id)
      .execute();
    const running = await env.db
      .selectFrom("prompt_queue")
      .select("attempt")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    keepOutcome(env.config, {
      queueId: item.id,
      attempt: running.attempt,
      outcome: { status: "done", content: "the kept answer", error: null, errorCode: null },
    });
    expect(await env.engine.tick()).toMatchObject({ reaped: [item.id] });
    const row = await env.db
      .selectFrom("prompt_queue")
      .select(["status", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "done", error_code: null });
    const answer = await env.db
      .selectFrom("messages")
      .select("content")
      .where("queue_id", "=", item.id)
      .where("role", "=", "assistant")
      .executeTakeFirstOrThrow();
    expect(answer.content).toBe("the kept answer");
    expect(fs.existsSync(keptOutcomeFile(env.config, item.id))).toBe(false);
  });

  it("a session record gives the last turn's answer only when that turn completed after the item started", () => {
    const since = Date.parse("2026-01-01T10:00:00.000Z");
    const earlier = [
      line("2026-01-01T09:00:00.000Z", { type: "user_message", message: "first" }),
      line("2026-01-01T09:00:01.000Z", { type: "task_complete", last_agent_message: "old answer" }),
    ];
    const thisTurn = line("2026-01-01T10:00:01.000Z", { type: "user_message", message: "second" });
    const done = line("2026-01-01T10:00:02.000Z", {
      type: "task_complete",
      last_agent_message: "new answer",
    });
    expect(completedTurnAnswer([...earlier, thisTurn, done].join("\n"), since)).toBe("new answer");
    // The turn was cut (no task_complete): nothing to recover, not the previous turn's answer.
    expect(completedTurnAnswer([...earlier, thisTurn, '{"timestamp":'].join("\n"), since)).toBeNull();
    expect(completedTurnAnswer(earlier.join("\n"), since)).toBeNull();
  });

  it("a session record planted as a link to a file outside the project's Codex state is never read; the same record as a file is", async () => {
    env = await testEngine();
    const { item, conversation } = await startConversation(env.db, env.clock, env.project, "work", "U");
    const since = Date.parse("2026-01-01T10:00:00.000Z");
    await env.db
      .updateTable("conversations")
      .set({ codex_thread_id: "th-planted" })
      .where("id", "=", conversation.id)
      .execute();
    await env.db
      .updateTable("prompt_queue")
      .set({ codex_started_at: since })
      .where("id", "=", item.id)
      .execute();
    const record = [
      line("2026-01-01T10:00:01.000Z", { type: "user_message", message: "x" }),
      line("2026-01-01T10:00:02.000Z", {
        type: "task_complete",
        last_agent_message: "ANSWER-FROM-ELSEWHERE",
      }),
    ].join("\n");
    const elsewhere = path.join(tempDir(), "other-project-rollout.jsonl");
    fs.writeFileSync(elsewhere, record);
    const day = path.join(
      projectCodexState(env.config.dataDir, env.project.id),
      "sessions",
      "2026",
      "01",
      "01",
    );
    fs.mkdirSync(day, { recursive: true });
    const rollout = path.join(day, "rollout-2026-01-01T10-00-00-th-planted.jsonl");
    fs.symlinkSync(elsewhere, rollout);
    const lost = { id: item.id, attempt: 1 };
    expect(await recoverOutcome(env.config, env.db, lost)).toBeNull();
    // Positive control: the same record, as a file of the project's own sessions, is recovered.
    fs.unlinkSync(rollout);
    fs.writeFileSync(rollout, record);
    expect(await recoverOutcome(env.config, env.db, lost)).toMatchObject({
      status: "done",
      content: "ANSWER-FROM-ELSEWHERE",
    });
  });

  it("the outcome write is retried with growing delays until it lands", async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await retryWrite(
      async () => {
        if (++calls < 4) throw Object.assign(new Error("disk full"), { code: "SQLITE_FULL" });
        return true;
      },
      { baseMs: 5, maxMs: 12 },
      (_err, _n, delay) => delays.push(delay),
    );
    expect(result).toBe(true);
    expect(delays).toEqual([5, 10, 12]);
  });
});
