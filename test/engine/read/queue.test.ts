import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { pendingEvents } from "../../../src/engine/outboxQueue.js";
import { queuePosition } from "../../../src/engine/conversations/queueReads.js";
import { conversationView } from "../../../src/engine/read/conversations.js";
import { testEngine } from "../../support/engine.js";

describe("queue position (one rule for the listener, the state message and the queued event)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("higher priority first, then first in first out; the same place everywhere it is shown", async () => {
    env = await testEngine();
    const a = await startConversation(env.db, env.clock, env.project, "a", "U1");
    const b = await startConversation(env.db, env.clock, env.project, "b", "U1");
    const repair = await startConversation(env.db, env.clock, env.project, "r", "U1", { origin: "repair" });
    expect(await queuePosition(env.db, a.item.id)).toBe(2);
    expect(await queuePosition(env.db, b.item.id)).toBe(3);
    expect(await queuePosition(env.db, repair.item.id)).toBe(1);
    expect((await conversationView(env.db, b.conversation.id))?.position).toBe(3);
    // The queued event counted the items ahead when it was emitted (before the repair came).
    const queued = (await pendingEvents(env.db)).entries
      .map((e) => e.event)
      .filter((e) => e.kind === "conversation.queued" && e.queueId === b.item.id);
    expect(queued).toEqual([expect.objectContaining({ position: 1 })]);
    expect(await queuePosition(env.db, "nope")).toBeNull();
  });
});
