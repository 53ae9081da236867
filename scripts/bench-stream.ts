// Slack calls of running turns: N concurrent turns (default 20) of synthetic progress (a new command
// every 4 s, a plan step every 12 s, an interim message every 9 s, a write every second like the
// worker's) against the fake Slack, through the real notifier, outbox and budget. Prints the calls
// per turn by method and the most calls per minute per method for the workspace, against its tier.
//   npm run build && node dist/scripts/bench-stream.js [turns] [seconds] [auto|off]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { WebClient } from "@slack/web-api";
import { Notifier } from "../src/bot/notifier/notifier.js";
import { SlackAddresses } from "../src/bot/store/addresses.js";
import { TIER_PER_MINUTE } from "../src/bot/notifier/slackBudget.js";
import { parseConfig } from "../src/config.js";
import { startConversation } from "../src/engine/conversations/conversations.js";
import { fixedHostLoad } from "../src/engine/system/hostLoad.js";
import { finishItem } from "../src/engine/conversations/outcome.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { addProject } from "../src/engine/projects/projects.js";
import { serializeProgress, type Progress } from "../src/engine/conversations/progress.js";
import { systemClock } from "../src/engine/clock.js";
import { writeTransaction, openMigrated } from "../src/engine/database.js";
import { Engine } from "../src/engine/engine.js";
import { createEngineApi } from "../src/engine/api/index.js";
import { emit } from "../src/engine/outbox.js";
import { silentLogger } from "../src/logger.js";
import { startFakeSlack, type FakeSlackCall } from "../test/support/fakeSlack.js";

const turns = Number(process.argv[2] ?? 20);
const seconds = Number(process.argv[3] ?? 90);
const streaming = process.argv[4] === "off" ? "off" : "auto";
const CHANNELS = 5;
const TEAM = "TBENCH";

const METHODS = [
  "chat.startStream",
  "chat.appendStream",
  "chat.stopStream",
  "chat.update",
  "chat.postMessage",
];
const LIMIT: Record<string, string> = {
  "chat.startStream": `Tier 2: ${TIER_PER_MINUTE.tier2}/min`,
  "chat.stopStream": `Tier 2: ${TIER_PER_MINUTE.tier2}/min (shared with startStream)`,
  "chat.appendStream": `Tier 4: ${TIER_PER_MINUTE.tier4}/min`,
  "chat.update": `Tier 3: ${TIER_PER_MINUTE.tier3}/min`,
  "chat.postMessage": `~${TIER_PER_MINUTE.post}/min per channel`,
};

/** What turn `n` shows `s` seconds in: the plan grows done, commands change, interim text comes and goes. */
function progressAt(n: number, s: number): Progress {
  const plan = [1, 2, 3, 4, 5].map((i) => ({ text: `Step ${i} of turn ${n}`, done: i * 12 <= s }));
  const text = s >= 9 ? `Interim note ${Math.floor(s / 9)} of turn ${n}: looking at the tests.` : null;
  return { kind: "command", detail: `npm test -- part-${Math.floor(s / 4)}`, plan, text };
}

/** The most calls in any 60-second window. */
function maxPerMinute(times: number[]): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= 60_000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-stream-"));
const slack = await startFakeSlack({ teamId: TEAM, streaming: true });
const config = parseConfig({ CODEXPI_DATA_DIR: dir, LOG_LEVEL: "silent" });
const db = await openMigrated(config.databasePath);
fs.mkdirSync(path.join(dir, "demo"));
const project = await addProject(db, systemClock, { name: "demo", path: path.join(dir, "demo") });
await updateGlobalPolicy(
  db,
  systemClock,
  {
    max_concurrent: turns,
    load_pause_percent: 1000,
    memory_pause_percent: 100,
    background_start_hour: 0,
    background_end_hour: 0,
  },
  "bench",
);
// Workers are stood in for: the dispatcher starts every turn, this script writes their progress.
const engine = new Engine({
  config,
  db,
  host: fixedHostLoad(),
  logger: silentLogger,
  spawner: async () => ({ pid: process.pid }),
});
const items: Array<{ id: string; conversationId: string }> = [];
const addresses = new SlackAddresses(db, systemClock);
for (let n = 0; n < turns; n++) {
  const channel = `CBENCH${n % CHANNELS}`;
  const { conversation, item } = await startConversation(
    db,
    systemClock,
    project,
    `turn ${n}`,
    `UBENCH${n}`,
    {
      onCreated: (trx, id) =>
        addresses
          .within(trx)
          .record("conversation", id, { channel, threadTs: null, statusTs: null, origin: "command" }),
    },
  );
  items.push({ id: item.id, conversationId: conversation.id });
}
const client = new WebClient("xoxb-bench", {
  slackApiUrl: slack.apiUrl,
  retryConfig: { retries: 0 },
  rejectRateLimitedCalls: true,
});
const notifier = new Notifier({
  api: createEngineApi(engine),
  db,
  client,
  clock: systemClock,
  logger: silentLogger,
  locale: "en",
  progress: { streaming, interimMs: 60_000, teamId: TEAM },
});
notifier.start();
const began = Date.now();
await engine.dispatch();

// One write a second per turn, as the worker's throttle does (with its outbox event).
for (let s = 1; s <= seconds; s++) {
  await new Promise((r) => setTimeout(r, began + s * 1000 - Date.now()));
  await writeTransaction(db, async (trx) => {
    for (const [n, item] of items.entries()) {
      const activity = serializeProgress(progressAt(n, s));
      await trx
        .updateTable("prompt_queue")
        .set({ last_activity: activity, last_activity_at: Date.now() })
        .where("id", "=", item.id)
        .execute();
      await emit(trx, Date.now(), {
        kind: "conversation.progress",
        conversationId: item.conversationId,
        queueId: item.id,
        activity,
      });
    }
  });
}
const finishedAt = Date.now();
for (const item of items)
  await writeTransaction(db, (trx) =>
    finishItem(
      trx,
      systemClock,
      engine.hook,
      { id: item.id, attempt: 1 },
      {
        status: "done",
        content: "All tests pass.",
        error: null,
        errorCode: null,
      },
    ),
  );
// Every answer posted (and every stream stopped) before counting.
const answered = () =>
  slack.callsTo("chat.postMessage").filter((c) => c.ok && c.args.text === "All tests pass.");
const open = () => slack.streams.filter((st) => st.state === "open").length;
while ((answered().length < turns || open() > 0) && Date.now() - began < (seconds + 180) * 1000)
  await new Promise((r) => setTimeout(r, 250));
await notifier.stop();
const elapsed = (Date.now() - began) / 1000;

const ours = (c: FakeSlackCall) => METHODS.includes(c.method);
const calls = slack.calls.filter(ours);
const lines = [
  `${turns} turns × ${seconds} s of progress, streaming ${streaming}, ${elapsed.toFixed(0)} s in all`,
];
const stops = slack.streams.map((st) => (st.calls.at(-1)?.at ?? 0) - finishedAt).sort((a, b) => a - b);
const latencies = answered()
  .map((c) => c.at - finishedAt)
  .sort((a, b) => a - b);
lines.push(
  `answers posted: ${answered().length}/${turns} (all turns ending at once: first ${((latencies[0] ?? 0) / 1000).toFixed(1)} s, median ${((latencies[Math.floor(latencies.length / 2)] ?? 0) / 1000).toFixed(1)} s, last ${((latencies.at(-1) ?? 0) / 1000).toFixed(1)} s after); streams: ${slack.streams.length}, stopped ${slack.streams.length - open()} (last ${((stops.at(-1) ?? 0) / 1000).toFixed(1)} s after the end)`,
);
lines.push("method               calls/turn  accepted  429  max/min (workspace)  limit");
for (const method of METHODS) {
  const mine = calls.filter((c) => c.method === method);
  const accepted = mine.filter((c) => c.ok);
  const limited = mine.filter((c) => c.status === 429).length;
  const perMinute =
    method === "chat.postMessage"
      ? Math.max(
          0,
          ...Array.from({ length: CHANNELS }, (_, i) =>
            maxPerMinute(accepted.filter((c) => c.args.channel === `CBENCH${i}`).map((c) => c.at)),
          ),
        )
      : maxPerMinute(accepted.map((c) => c.at));
  lines.push(
    `${method.padEnd(20)} ${(mine.length / turns).toFixed(1).padStart(10)}  ${String(accepted.length).padStart(8)}  ${String(limited).padStart(3)}  ${String(perMinute).padStart(19)}  ${LIMIT[method]}${method === "chat.postMessage" ? " (max of one channel)" : ""}`,
  );
}
const tier2 = calls.filter(
  (c) => c.ok && (c.method === "chat.startStream" || c.method === "chat.stopStream"),
);
lines.push(
  `Tier 2 together (start + stop): max ${maxPerMinute(tier2.map((c) => c.at))}/min of ${TIER_PER_MINUTE.tier2}`,
);
process.stdout.write(`${lines.join("\n")}\n`);
await db.destroy();
await slack.close();
fs.rmSync(dir, { recursive: true, force: true });
