import { afterEach, describe, expect, it } from "vitest";
import {
  CONVERSATION_TRANSITIONS,
  canConversation,
  conversationActions,
  statusAfterItem,
} from "../../../src/engine/conversations/conversationMachine.js";
import { moveConversation } from "../../../src/engine/conversations/conversationStore.js";
import {
  QUEUE_TRANSITIONS,
  canQueueItem,
  queueItemActions,
} from "../../../src/engine/conversations/queueMachine.js";
import { moveItem } from "../../../src/engine/conversations/queueStore.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { testEngine } from "../../support/engine.js";

describe("queue item and conversation machines", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => env?.close());

  it("a queue item is claimed once and finished once: every transition of its table", () => {
    expect(QUEUE_TRANSITIONS).toEqual({
      queued: ["running", "cancelled", "steered"],
      running: ["done", "failed", "cancelled"],
      done: [],
      failed: [],
      cancelled: [],
      steered: [],
    });
    expect(queueItemActions("queued")).toEqual(["claim", "stop"]);
    expect(queueItemActions("running")).toEqual(["finish", "stop"]);
    expect(canQueueItem("done", "stop")).toBe(false);
  });

  it("a conversation's status mirrors its items: every transition of its table", () => {
    expect(CONVERSATION_TRANSITIONS).toEqual({
      idle: ["queued", "running"],
      queued: ["queued", "running", "idle", "completed", "failed"],
      running: ["queued", "completed", "failed", "idle"],
      completed: ["queued", "running"],
      failed: ["queued", "running"],
    });
    expect(statusAfterItem("done", false)).toBe("completed");
    expect(statusAfterItem("failed", false)).toBe("failed");
    expect(statusAfterItem("cancelled", false)).toBe("idle");
    expect(statusAfterItem("done", true)).toBe("queued");
    expect(conversationActions("running")).toEqual(["prompt", "stop"]);
    expect(canConversation("completed", "stop")).toBe(false);
  });

  it("a finished item does not move again; a queued one is claimed (control), and a stale attempt moves nothing", async () => {
    env = await testEngine();
    const project = env.project;
    const { item } = await startConversation(env.db, env.clock, project, "bonjour", "U1");
    const status = async () =>
      await env!.db
        .selectFrom("prompt_queue")
        .select(["status", "attempt"])
        .where("id", "=", item.id)
        .executeTakeFirstOrThrow();
    expect(await moveItem(env.db, item.id, "running", { attempt: 1 })).toBe(true);
    expect(await moveItem(env.db, item.id, "done", {}, { attempt: 2 })).toBe(false); // another attempt's worker
    expect((await status()).status).toBe("running");
    expect(await moveItem(env.db, item.id, "done", {}, { attempt: 1 })).toBe(true);
    expect(await moveItem(env.db, item.id, "cancelled")).toBe(false); // done is terminal
    expect((await status()).status).toBe("done");
    await expect(moveItem(env.db, item.id, "running", {}, { from: ["done"] })).rejects.toThrow(
      "not a transition",
    );
  });

  it("a conversation's mirror moves only along its table (control: queued → running moves)", async () => {
    env = await testEngine();
    const project = env.project;
    const { conversation } = await startConversation(env.db, env.clock, project, "bonjour", "U1");
    const status = async () =>
      (
        await env!.db
          .selectFrom("conversations")
          .select("status")
          .where("id", "=", conversation.id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status()).toBe("queued");
    expect(await moveConversation(env.db, conversation.id, "running")).toBe(true);
    expect(await moveConversation(env.db, conversation.id, "completed")).toBe(true);
    expect(await moveConversation(env.db, conversation.id, "idle")).toBe(false); // completed → idle is no transition
    expect(await status()).toBe("completed");
  });
});
