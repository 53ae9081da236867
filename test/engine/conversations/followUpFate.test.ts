import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../../src/engine/conversations/conversations.js";
import { followUpFate, markSteerable, markSteered } from "../../../src/engine/conversations/steer.js";
import type { FakeClock } from "../../../src/engine/clock.js";
import { testEngine } from "../../support/engine.js";

// What a follow-up's acknowledgement says: sent to the running agent, about to be (the notifier
// waits a little), or its place in the queue.
describe("a follow-up's fate", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  async function runningTurn(opts: { steer: boolean; steerable: boolean }) {
    env = await testEngine();
    await env.db
      .updateTable("projects")
      .set({ steer: opts.steer ? 1 : 0 })
      .execute();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", attempt: 1 })
      .where("id", "=", item.id)
      .execute();
    if (opts.steerable) await markSteerable(env.db, { id: item.id, attempt: 1 }, "turn-1");
    const note = await enqueue(env.db, env.clock, conversation.id, "also this", { requestedBy: "UOWNER" });
    return { conversation, item, note };
  }

  const fate = (id: string) => followUpFate(env.db, id, env.clock.now());

  it("is about to be steered while the running turn can take it, then steered once the worker marked it", async () => {
    const { conversation, item, note } = await runningTurn({ steer: true, steerable: true });
    expect(await fate(note.id)).toBe("steering");
    expect(
      await markSteered(env.db, env.clock, { id: note.id, conversationId: conversation.id }, item.id),
    ).toBe(true);
    expect(await fate(note.id)).toBe("steered");
    // Marked once: a second mark moves nothing.
    expect(
      await markSteered(env.db, env.clock, { id: note.id, conversationId: conversation.id }, item.id),
    ).toBe(false);
  });

  it("is queued when the project does not steer, when the turn cannot be steered (exec, or it ended), or after waiting too long", async () => {
    expect(await fate((await runningTurn({ steer: false, steerable: true })).note.id)).toBe("queued");
    await env.close();
    expect(await fate((await runningTurn({ steer: true, steerable: false })).note.id)).toBe("queued");
    await env.close();
    const { item, note } = await runningTurn({ steer: true, steerable: true });
    expect(await fate(note.id)).toBe("steering"); // control
    (env.clock as FakeClock).advance(6_000);
    expect(await fate(note.id)).toBe("queued"); // the worker never took it: the queue's ack is due
    (env.clock as FakeClock).advance(-6_000);
    await markSteerable(env.db, { id: item.id, attempt: 1 }, null); // the turn is over
    expect(await fate(note.id)).toBe("queued");
  });
});
