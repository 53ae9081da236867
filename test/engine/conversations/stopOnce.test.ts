import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../../src/engine/conversations/conversations.js";
import { stop } from "../../../src/engine/conversations/conversationService.js";
import { coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

// A stop tells its conversation's thread once what it stopped: the event carries who and what,
// and a second stop (a double click, two people at once) finds nothing and emits nothing.
describe("a stop is reported once", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  async function busyConversation() {
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Long", OWNER);
    // The first item runs (no worker process: nothing to signal), a follow-up waits behind it.
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", started_at: env.clock.now() })
      .where("id", "=", item.id)
      .execute();
    await enqueue(env.db, env.clock, conversation.id, "et ensuite", { requestedBy: OWNER });
    return conversation;
  }

  const stoppedEvents = async () =>
    (await env.db.selectFrom("outbox").select(["kind", "payload"]).orderBy("id").execute())
      .filter((r) => r.kind === "conversation.stopped")
      .map((r) => JSON.parse(r.payload));

  it("the first stop counts the running turn and the queued follow-up and emits one event naming who; the second counts nothing and emits nothing", async () => {
    env = await coordinationEnv();
    const conversation = await busyConversation();
    const first = await stop(env.engine, OWNER_ACTOR, conversation.id);
    expect(first).toEqual({ stoppingRunning: 1, cancelledQueued: 1, cancelledDecisions: 0 });
    const second = await stop(env.engine, OWNER_ACTOR, conversation.id);
    expect(second).toEqual({ stoppingRunning: 0, cancelledQueued: 0, cancelledDecisions: 0 });
    expect(await stoppedEvents()).toEqual([
      {
        kind: "conversation.stopped",
        conversationId: conversation.id,
        by: OWNER,
        stoppingRunning: 1,
        cancelledQueued: 1,
        cancelledDecisions: 0,
      },
    ]);
  });

  it("two stops at once: what is stopped is counted by exactly one of them", async () => {
    env = await coordinationEnv();
    const conversation = await busyConversation();
    const reports = await Promise.all([
      stop(env.engine, OWNER_ACTOR, conversation.id),
      stop(env.engine, { userId: "UADMIN", isAdmin: true }, conversation.id),
    ]);
    const total = (k: "stoppingRunning" | "cancelledQueued") => reports.reduce((n, r) => n + r[k], 0);
    expect(total("stoppingRunning")).toBe(1);
    expect(total("cancelledQueued")).toBe(1);
    const events = await stoppedEvents();
    const counted = events.reduce((n, e) => n + e.stoppingRunning + e.cancelledQueued, 0);
    expect(counted).toBe(2);
  });

  it("someone who may not drive the conversation stops nothing and emits nothing (control: the owner can)", async () => {
    env = await coordinationEnv();
    const conversation = await busyConversation();
    await expect(stop(env.engine, { userId: "UEVE", isAdmin: false }, conversation.id)).rejects.toThrow();
    expect(await stoppedEvents()).toEqual([]);
    expect((await stop(env.engine, OWNER_ACTOR, conversation.id)).stoppingRunning).toBe(1);
  });
});
