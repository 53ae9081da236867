import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { writeTransaction } from "../../src/engine/database.js";
import { announce } from "../../src/engine/wakeups.js";
import { codexEngine, finished, until } from "../support/codexEngine.js";

// Run by the postgres project only (vitest.config.ts): a real `codexpi worker` process on
// PostgreSQL learns of a stop from the NOTIFY of its transaction, not from its poll (5 s there).

describe("a stop reaches a worker on PostgreSQL", () => {
  let env: Awaited<ReturnType<typeof codexEngine>>;
  afterEach(async () => env?.close());

  /** Starts a turn the model never answers; resolves once Codex runs and asked the model. */
  async function hangingTurn() {
    env.fake.enqueue({ kind: "hang" });
    const { item } = await startConversation(env.db, env.clock, env.project, "hello", "UOWNER");
    await env.engine.dispatch();
    await until(
      async () =>
        (
          await env.db
            .selectFrom("prompt_queue")
            .select("codex_pid")
            .where("id", "=", item.id)
            .executeTakeFirst()
        )?.codex_pid,
      30_000,
      "codex to start",
    );
    await env.fake.waitForRequests(env.fake.requests.length + 1, 30_000);
    return item;
  }

  /** Flags the stop as stop.ts does (no signal to the worker), with or without its wake-up. */
  async function flagStop(queueId: string, wake: boolean): Promise<number> {
    const t0 = Date.now();
    await writeTransaction(env.db, async (trx) => {
      await trx
        .updateTable("prompt_queue")
        .set({ cancel_requested_at: env.clock.now() })
        .where("id", "=", queueId)
        .execute();
      if (wake) await announce(trx, "cancel", queueId);
    });
    const row = await finished(env.db, queueId, 30_000);
    expect(row.status).toBe("cancelled");
    return Date.now() - t0;
  }

  it("the worker stops at once when woken; without the wake-up only its poll finds the flag", async () => {
    env = await codexEngine({ maxConcurrent: 1 });
    const woken = await flagStop((await hangingTurn()).id, true);
    const polled = await flagStop((await hangingTurn()).id, false);
    console.log(`stop flagged → turn cancelled by the worker: ${woken} ms woken, ${polled} ms by its poll`);
    expect(woken).toBeLessThan(2_000);
    expect(polled).toBeGreaterThan(woken + 1_000);
  });
});
