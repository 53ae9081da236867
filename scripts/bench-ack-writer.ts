// A stand-in for an agent finishing, used by bench-ack: in a loop, it writes a real outcome
// (finishItem: status, assistant message, outcome hook, outbox) for its running item and claims a
// new one in the same transaction, so the concurrency limit stays reached.
//   node dist/scripts/bench-ack-writer.js <database> <project-id> <pause-ms>
// With `hold`, it is the foreign writer of the lock run instead: it takes the database's write
// lock (BEGIN IMMEDIATE), says "locked", keeps it for <ms>, then lets go and exits.
//   node dist/scripts/bench-ack-writer.js <database> hold <ms>
import SQLite from "better-sqlite3";
import { createConversation, enqueueIn } from "../src/engine/conversations/conversations.js";
import { finishItem } from "../src/engine/conversations/outcome.js";
import { announceOutcome, createOutcomeHook } from "../src/engine/outcomeHook.js";
import { processStartTime } from "../src/engine/system/processes.js";
import { systemClock } from "../src/engine/clock.js";
import { writeTransaction, openDatabase } from "../src/engine/database.js";

const [file, projectId, pauseArg] = process.argv.slice(2);
if (!file || !projectId) throw new Error("usage: bench-ack-writer <database> <project-id> <pause-ms>");
if (projectId === "hold") {
  const foreign = new SQLite(file);
  foreign.pragma("busy_timeout = 5000");
  foreign.exec("BEGIN IMMEDIATE");
  process.stdout.write("locked\n");
  await new Promise((r) => setTimeout(r, Number(pauseArg ?? 10_000)));
  foreign.exec("ROLLBACK");
  foreign.close();
  process.stdout.write("released\n");
  process.exit(0);
}
const pause = Number(pauseArg ?? 25);
// Yielding: during the lock run this writer waits for the foreign lock like the bot does,
// instead of failing after its 5 s busy_timeout.
const db = openDatabase(file, { busy: "yield" });
const hook = createOutcomeHook([announceOutcome], systemClock);
const me = { pid: process.pid, start: processStartTime(process.pid) };

async function claimNew() {
  return writeTransaction(db, async (trx) => {
    const c = await createConversation(trx, systemClock, projectId as string, "bench agent", "UBENCH");
    const item = await enqueueIn(trx, systemClock, c.id, "agent work");
    await trx
      .updateTable("prompt_queue")
      .set({
        status: "running",
        attempt: 1,
        started_at: Date.now(),
        slot_acquired_at: Date.now(),
        worker_pid: me.pid,
        worker_start_time: me.start,
      })
      .where("id", "=", item.id)
      .execute();
    return { id: item.id, attempt: 1 };
  });
}

let current = await claimNew();
let stop = false;
process.on("SIGTERM", () => (stop = true));
process.stdout.write("ready\n");
while (!stop) {
  await new Promise((r) => setTimeout(r, pause));
  const finishing = current;
  current = await writeTransaction(db, async (trx) => {
    await finishItem(trx, systemClock, hook, finishing, {
      status: "done",
      content: "agent answer ".repeat(50),
      error: null,
      errorCode: null,
      usage: { input_tokens: 1000 },
    });
    const c = await createConversation(trx, systemClock, projectId as string, "bench agent", "UBENCH");
    const item = await enqueueIn(trx, systemClock, c.id, "agent work");
    await trx
      .updateTable("prompt_queue")
      .set({
        status: "running",
        attempt: 1,
        started_at: Date.now(),
        slot_acquired_at: Date.now(),
        worker_pid: me.pid,
        worker_start_time: me.start,
      })
      .where("id", "=", item.id)
      .execute();
    return { id: item.id, attempt: 1 };
  });
}
await db.destroy();
