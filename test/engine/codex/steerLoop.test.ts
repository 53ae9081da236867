import { afterEach, describe, expect, it } from "vitest";
import type { RunningTurn } from "../../../src/engine/codex/appServer/appServerRunner.js";
import { enqueue, startConversation } from "../../../src/engine/conversations/conversations.js";
import { steerLoop } from "../../../src/engine/codex/steerLoop.js";
import { testEngine } from "../../support/engine.js";

// The worker's steer loop against the runner's port (RunningTurn): what the turn takes is marked
// once; what it refuses stays queued.
describe("the worker's steer loop", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  async function runningWithFollowUp(steer: boolean) {
    env = await testEngine();
    await env.db
      .updateTable("projects")
      .set({ steer: steer ? 1 : 0 })
      .execute();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", attempt: 1 })
      .where("id", "=", item.id)
      .execute();
    const note = await enqueue(env.db, env.clock, conversation.id, "also this", { requestedBy: "UOWNER" });
    const engineAnswer = await enqueue(env.db, env.clock, conversation.id, "decision: A", {
      origin: "decision",
    });
    const loop = steerLoop(
      env.engine,
      { id: item.id, attempt: 1, conversationId: conversation.id },
      { pollMs: 20 },
    );
    // `codexpi ask --conversation --wait` waits for its own turn's answer: never steered.
    const fromCli = await enqueue(env.db, env.clock, conversation.id, "from the CLI", { requestedBy: "cli" });
    // A follow-up with files (S-FILE-05): a steer carries text only, so it waits for its own turn.
    const withFiles = await enqueue(env.db, env.clock, conversation.id, "see this file", {
      requestedBy: "UOWNER",
      attachments: [{ name: "a.txt", kind: "file", size: 1, staged: "/nowhere/a.txt" }],
    });
    return { item, note, engineAnswer, fromCli, withFiles, loop };
  }

  const statusOf = async (id: string) =>
    await env.db
      .selectFrom("prompt_queue")
      .select(["status", "steered_into"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("a follow-up the turn takes is sent once and marked steered however many polls run; the engine's own items, the CLI's and one with files (S-FILE-05) are never steered", async () => {
    const { item, note, engineAnswer, fromCli, withFiles, loop } = await runningWithFollowUp(true);
    const sent: string[] = [];
    const turn: RunningTurn = { threadId: "t", turnId: "u", steer: async (text) => void sent.push(text) };
    loop.onTurnStarted(turn);
    // Until it is sent (a fixed 200 ms was too short on a loaded machine), then more polls run.
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    await loop.stop();
    expect(sent).toEqual(["also this"]);
    expect(await statusOf(note.id)).toEqual({ status: "steered", steered_into: item.id });
    expect(await statusOf(engineAnswer.id)).toEqual({ status: "queued", steered_into: null });
    expect(await statusOf(fromCli.id)).toEqual({ status: "queued", steered_into: null });
    expect(await statusOf(withFiles.id)).toEqual({ status: "queued", steered_into: null });
    const mark = await env.db
      .selectFrom("prompt_queue")
      .select("steer_turn_id")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(mark.steer_turn_id).toBeNull();
  });

  it("a follow-up the turn refuses (it ended meanwhile) stays queued, to run as the next turn", async () => {
    const { note, loop } = await runningWithFollowUp(true);
    let tries = 0;
    loop.onTurnStarted({
      threadId: "t",
      turnId: "u",
      steer: async () => {
        tries++;
        throw new Error("no active turn to steer");
      },
    });
    // Until the loop has tried (a fixed 200 ms was too short on a loaded machine), then stopped.
    await expect.poll(() => tries, { timeout: 10_000 }).toBeGreaterThan(0);
    await loop.stop();
    expect(tries).toBeGreaterThan(0);
    expect(await statusOf(note.id)).toEqual({ status: "queued", steered_into: null });
  });

  it("a project that does not allow steering keeps its follow-ups queued (control)", async () => {
    const { note, loop } = await runningWithFollowUp(false);
    const sent: string[] = [];
    loop.onTurnStarted({ threadId: "t", turnId: "u", steer: async (text) => void sent.push(text) });
    await new Promise((r) => setTimeout(r, 200));
    await loop.stop();
    expect(sent).toEqual([]);
    expect(await statusOf(note.id)).toEqual({ status: "queued", steered_into: null });
  });
});
