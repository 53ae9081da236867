import { afterEach, describe, expect, it } from "vitest";
import { prune } from "../../src/bot/server.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { testEngine } from "../support/engine.js";

describe("housekeeping", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("forgets old event ids and old delivered outbox rows, never pending ones or recent ones", async () => {
    env = await testEngine();
    const now = env.clock.now();
    await env.db
      .insertInto("slack_events")
      .values([
        { event_id: "old", received_at: now - 2 * 86_400_000 },
        { event_id: "new", received_at: now },
      ])
      .execute();
    await startConversation(env.db, env.clock, env.project, "a", "U"); // one pending event
    await env.db
      .insertInto("outbox")
      .values([
        {
          kind: "x",
          payload: "{}",
          status: "done",
          next_attempt_at: 0,
          created_at: 0,
          done_at: now - 8 * 86_400_000,
        },
        {
          kind: "x",
          payload: "{}",
          status: "done",
          next_attempt_at: 0,
          created_at: 0,
          done_at: now - 3600_000,
        },
      ])
      .execute();
    await prune(env.engine);
    expect(
      (await env.db.selectFrom("slack_events").select("event_id").execute()).map((r) => r.event_id),
    ).toEqual(["new"]);
    const left = await env.db.selectFrom("outbox").select(["status", "done_at"]).orderBy("id").execute();
    expect(left).toEqual([
      { status: "pending", done_at: null },
      { status: "done", done_at: now - 3600_000 },
    ]);
  });
});
