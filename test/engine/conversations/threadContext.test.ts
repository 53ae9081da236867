import { afterEach, describe, expect, it } from "vitest";
import { ask, followUp, loadConversation } from "../../../src/engine/conversations/conversationService.js";
import type { Actor } from "../../../src/engine/projects/access.js";
import { readStoredContext, type ThreadContext } from "../../../src/engine/threadContext/index.js";
import { testEngine } from "../../support/engine.js";

// Issue 19, item 1: the Slack context a front end gives with a prompt is kept with the queued item
// (in the transaction that queues it, so that a restart before the turn loses nothing), within
// the configured budget; a malformed one is refused before anything is written.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const at = Date.UTC(2026, 11, 2, 10, 31);
const context = (n: number): ThreadContext => ({
  kind: "thread",
  channel: { name: "deploys", topic: null },
  messages: Array.from({ length: n }, (_, i) => ({
    author: `P${i}`,
    at: at + i,
    text: `m${i}`,
    ...(i ? {} : { root: true }),
  })),
  omitted: 0,
});

describe("the context kept with a queued prompt", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => {
    await env?.close();
  });
  const stored = async (id: string) =>
    readStoredContext(
      (
        await env.db
          .selectFrom("prompt_queue")
          .select("thread_context")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).thread_context,
    );

  it("S-CTX-01, S-CTX-05: an ask keeps its context with the item, cut to the budget; a follow-up its own; none is null", async () => {
    env = await testEngine({ env: { CODEXPI_THREAD_CONTEXT_MESSAGES: "3" } });
    const started = await ask(env.engine, OWNER, "demo", "fix it", { context: context(10) });
    const kept = await stored(started.item.id);
    expect(kept?.messages.map((m) => m.text)).toEqual(["m0", "m8", "m9"]);
    expect(kept?.omitted).toBe(7);
    const c = await loadConversation(env.engine, started.conversation.id);
    const since: ThreadContext = {
      kind: "since",
      channel: null,
      messages: [{ author: "Olga", at, text: "note" }],
      omitted: 0,
    };
    const next = await followUp(env.engine, OWNER, c, "and then", { context: since });
    expect(await stored(next.item.id)).toEqual(since);
    const plain = await followUp(env.engine, OWNER, c, "more");
    expect(await stored(plain.item.id)).toBeNull();
    // The prompt itself stays the person's own words.
    expect(started.item.content).toBe("fix it");
  });

  it("S-CTX-01: a malformed context is refused and nothing is queued; the same ask without it runs (control)", async () => {
    env = await testEngine();
    const bad = { ...context(1), kind: "elsewhere" } as unknown as ThreadContext;
    await expect(ask(env.engine, OWNER, "demo", "fix it", { context: bad })).rejects.toMatchObject({
      reason: "thread_context_invalid",
    });
    expect(await env.db.selectFrom("prompt_queue").select("id").execute()).toEqual([]);
    await ask(env.engine, OWNER, "demo", "fix it", { context: context(1) });
    expect((await env.db.selectFrom("prompt_queue").select("id").execute()).length).toBe(1);
  });
});
