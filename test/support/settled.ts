import type { RunningBot } from "../../src/bot/server.js";
import type { Database } from "../../src/engine/database.js";

/** The parts of a running bot `settled` watches. */
export interface Settleable {
  bot: RunningBot;
  db: Database;
}

/**
 * Resolves once the bot is idle: every Slack request received so far has been processed (its work
 * after ack included), no queue item waits or runs, and the outbox holds nothing left to deliver.
 * A test that asserts something did *not* happen waits for this instead of a fixed time: it then
 * waits exactly as long as the work takes, and a slow machine cannot make it pass by accident.
 */
export async function settled(target: Settleable, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await target.bot.slack?.settled();
    const busyQueue = await target.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    // A decision's DM postponed to its time (CODEXPI_DECISION_DM_SECONDS) is scheduled, not
    // work in flight: the bot is settled until it is due.
    const pendingOutbox = await target.db
      .selectFrom("outbox")
      .select("id")
      .where("status", "=", "pending")
      .where((w) => w.or([w("kind", "!=", "decision.reminder"), w("next_attempt_at", "<=", Date.now())]))
      .executeTakeFirst();
    if (!busyQueue && !pendingOutbox) {
      // The database checks yielded: make sure no request arrived and started work meanwhile.
      await target.bot.slack?.settled();
      return;
    }
    if (Date.now() > deadline) throw new Error("timed out waiting for the bot to settle");
    await new Promise((r) => setTimeout(r, 50));
  }
}
