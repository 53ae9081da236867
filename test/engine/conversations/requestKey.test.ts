import { afterEach, describe, expect, it } from "vitest";
import { ask, followUp, loadConversation } from "../../../src/engine/conversations/conversationService.js";
import type { Actor } from "../../../src/engine/projects/access.js";
import { testEngine } from "../../support/engine.js";

// A Slack request replayed after its consumer died half-way (src/bot/intake) asks again: the
// prompt it carries is queued once, whatever the number of tries.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };

describe("prompts keyed by the request they come from", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => {
    await env?.close();
  });
  const counts = async () => ({
    conversations: (await env.db.selectFrom("conversations").select("id").execute()).length,
    items: (await env.db.selectFrom("prompt_queue").select("id").execute()).length,
    messages: (await env.db.selectFrom("messages").select("id").execute()).length,
    events: (await env.db.selectFrom("outbox").select("id").execute()).length,
  });

  it("an ask replayed with its key starts nothing new; another key does (the control)", async () => {
    env = await testEngine();
    const first = await ask(env.engine, OWNER, "demo", "fix the build", { requestKey: "Ev1" });
    const before = await counts();
    const again = await ask(env.engine, OWNER, "demo", "fix the build", { requestKey: "Ev1" });
    expect(again.conversation.id).toBe(first.conversation.id);
    expect(again.item.id).toBe(first.item.id);
    expect(await counts()).toEqual(before);
    await ask(env.engine, OWNER, "demo", "fix the build", { requestKey: "Ev2" });
    expect((await counts()).conversations).toBe(before.conversations + 1);
    // Without a key (the CLI, tests), every ask is its own.
    await ask(env.engine, OWNER, "demo", "fix the build");
    await ask(env.engine, OWNER, "demo", "fix the build");
    expect((await counts()).conversations).toBe(before.conversations + 3);
  });

  it("a follow-up replayed with its key is queued once; another key queues another", async () => {
    env = await testEngine();
    const started = await ask(env.engine, OWNER, "demo", "first", { requestKey: "Ev1" });
    const c = await loadConversation(env.engine, started.conversation.id);
    const one = await followUp(env.engine, OWNER, c, "and then?", { requestKey: "Ev2" });
    const before = await counts();
    const two = await followUp(env.engine, OWNER, c, "and then?", { requestKey: "Ev2" });
    expect(two.item.id).toBe(one.item.id);
    expect(await counts()).toEqual(before);
    await followUp(env.engine, OWNER, c, "and then?", { requestKey: "Ev3" });
    expect((await counts()).items).toBe(before.items + 1);
  });

  it("S-ONE-06: two deliveries of one message racing (two processes on one database) queue it once: one conversation, one item, the loser told it is a duplicate", async () => {
    env = await testEngine();
    // Concurrent on PostgreSQL (a pool: these writes take no global lock, the unique key on the
    // request decides); serialised on SQLite (BEGIN IMMEDIATE). The same outcome either way.
    // Several rounds of eight racers: on PostgreSQL a racer may find no item at its first read
    // and the winner's at its second (READ COMMITTED), which once left an orphan conversation and
    // answered two racers "not a duplicate".
    const RACERS = 8;
    const falses = (n: number) => [false, ...Array<boolean>(n - 1).fill(true)];
    for (let round = 1; round <= 5; round++) {
      const started = await Promise.all(
        Array.from({ length: RACERS }, () =>
          ask(env.engine, OWNER, "demo", "fix it", { requestKey: `msg:C1:${round}.000100` }),
        ),
      );
      expect(new Set(started.map((s) => s.item.id)).size).toBe(1);
      expect(started.map((s) => s.duplicate).sort()).toEqual(falses(RACERS));
      expect(new Set(started.map((s) => s.conversation.id)).size).toBe(1);
      expect((await counts()).conversations).toBe(round);
      const c = await loadConversation(env.engine, started[0]!.conversation.id);
      const followed = await Promise.all(
        Array.from({ length: RACERS }, () =>
          followUp(env.engine, OWNER, c, "and then?", { requestKey: `msg:C1:${round}.000200` }),
        ),
      );
      expect(new Set(followed.map((f) => f.item.id)).size).toBe(1);
      expect(followed.map((f) => f.duplicate).sort()).toEqual(falses(RACERS));
      expect((await counts()).items).toBe(2 * round);
    }
  });
});
