// Soak test of the whole bot: N conversations (a /codex ask, then follow-ups as thread replies)
// through the real `codexpi serve` (a child process, signed HTTP), the real workers and Codex
// binary, with Slack and the model faked on 127.0.0.1 (test/support), while serve is SIGKILLed K
// times at random points (half of them right after an ack), agents' workers are killed, and Slack
// goes through an outage (HTTP 500), then 429s and posts stored whose response is lost.
// Prints acked, answered, lost, duplicated, orphans and the takeover time. Nothing is hidden: a
// request acked then lost with serve counts as lost.
//   npm run build && node dist/scripts/soak.js [conversations=12] [kills=10] [followUps=2] [workerKills=3]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../src/config.js";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { killGroup, killTree } from "../src/engine/system/processes.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { FAKE_KEY_ENV, makeCodexHome } from "../test/support/codexHome.js";
import { inputText, startFakeModel, type FakeStep } from "../test/support/fakeModel.js";
import { startFakeSlack } from "../test/support/fakeSlack.js";
import { eventBody, messageEvent, postSigned, slashCommandBody } from "../test/support/slackRequests.js";
import { fmt, median } from "./benchStats.js";

const [N, K, F, W] = [12, 10, 2, 3].map((d, i) => Number(process.argv[2 + i] ?? d)) as [
  number,
  number,
  number,
  number,
];
const SECRET = "soak-secret";
const TEAM = "T0001";
const USER = "USOAK";
const CHANNEL = "C1";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const started = Date.now();
const say = (line: string) =>
  process.stderr.write(`[soak +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

// Agents answer "ANSWER <token>" for the newest token of their prompt; a slow token first runs a
// 4 s command, so that its worker can be killed mid-turn.
const slow = new Set<string>();
const shelled = new Set<string>();
const respond = (body: Parameters<typeof inputText>[0]): FakeStep => {
  const token =
    inputText(body)
      .match(/SOAK-\d+-\d+/g)
      ?.at(-1) ?? "none";
  if (slow.has(token) && !shelled.has(token)) {
    shelled.add(token);
    return { kind: "shell", command: ["sleep", "4"] };
  }
  return { kind: "text", text: `ANSWER ${token} done` };
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-soak-"));
const slack = await startFakeSlack({ teamId: TEAM });
const model = await startFakeModel({ respond });
const home = await makeCodexHome(model.url);
const port = await freePort();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...home.env,
  CODEXPI_DATA_DIR: path.join(dir, "data"),
  CODEXPI_AGENT_ENV: FAKE_KEY_ENV,
  SLACK_BOT_TOKEN: "xoxb-soak",
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  SLACK_TEAM_ID: TEAM,
  HOST: "127.0.0.1",
  PORT: String(port),
  HEALTH_PORT: "0",
  CODEXPI_METRICS_PORT: "0",
  LOG_LEVEL: "warn",
  NO_PROXY: "127.0.0.1,localhost",
};
const config = parseConfig(env);
const db = await openMigrated(config.database);
fs.mkdirSync(path.join(dir, "demo"));
await addProject(db, systemClock, { name: "demo", path: path.join(dir, "demo") });
await updateGlobalPolicy(
  db,
  systemClock,
  {
    max_concurrent: 4,
    load_pause_percent: 1000,
    memory_pause_percent: 100,
    background_start_hour: 0,
    background_end_hour: 0,
  },
  "soak",
);

// ---- serve: started, killed, restarted; each restart's takeover is timed ----
const logFd = fs.openSync(path.join(dir, "serve.log"), "a");
let serve: ChildProcess | null = null;
const takeovers: number[] = [];
const kills = { random: 0, afterAck: 0, workers: 0 };
let killOnNextAck = false;
const selfExits: string[] = [];
let finished = false;

function startServe(): ChildProcess {
  const child = spawn(process.execPath, [path.join(root, "dist/bin/main.js"), "serve"], {
    env,
    stdio: ["ignore", logFd, logFd],
  });
  const at = Date.now();
  serve = child;
  // Like systemd's Restart=on-failure: a serve that exits on its own (e.g. Slack down while it
  // starts) is counted and started again.
  child.once("exit", (code, signal) => {
    if (serve !== child) return;
    selfExits.push(`${code ?? signal}`);
    say(`serve exited on its own (${code ?? signal}); restarting in 1 s`);
    serve = null;
    setTimeout(() => {
      if (!finished) startServe();
    }, 1_000);
  });
  void (async () => {
    while (serve === child && Date.now() - at < 120_000) {
      const lease = await db
        .selectFrom("leases")
        .select("owner")
        .where("name", "=", "coordinator")
        .executeTakeFirst();
      if (lease?.owner.split(":")[1] === String(child.pid)) {
        takeovers.push(Date.now() - at);
        return;
      }
      await sleep(25);
    }
  })();
  return child;
}

async function killServe(why: "random" | "afterAck"): Promise<void> {
  const child = serve;
  if (!child || child.exitCode !== null) return;
  serve = null;
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  kills[why]++;
  say(`serve SIGKILLed (${why}), ${kills.random + kills.afterAck}/${K}; restarting`);
  startServe();
}

// ---- the person: prompts, acks, retries ----
interface Prompt {
  token: string;
  acked: boolean;
  attempts: number;
  /** What each attempt got: an HTTP status, or "refused" when serve was down. */
  answers: string[];
}
const prompts: Prompt[] = [];
let eventSeq = 0;

/** Sends until acked (a refused or failed request is what a person, or Slack for events, retries). */
async function send(token: string, body: () => string, contentType: "form" | "json"): Promise<Prompt> {
  const p: Prompt = { token, acked: false, attempts: 0, answers: [] };
  prompts.push(p);
  // Slack retries an event 3 times (after about 1 and 5 minutes: compressed here); a person retypes
  // a refused command for a minute. serve may be down for a while: it cannot start while Slack is.
  const pauses = contentType === "json" ? [1_000, 10_000, 30_000] : Array.from({ length: 30 }, () => 2_000);
  for (let i = 0; i <= pauses.length && !p.acked; i++) {
    p.attempts++;
    const res = await postSigned(`http://127.0.0.1:${port}`, "/slack/events", body(), contentType, SECRET, {
      timeoutMs: 5_000,
      ...(contentType === "json" && i > 0 ? { retryNum: i } : {}),
    }).catch(() => null);
    p.answers.push(res ? String(res.status) : "refused");
    if (res?.status === 200) {
      p.acked = true;
      if (killOnNextAck) {
        killOnNextAck = false;
        await killServe("afterAck");
      }
    } else if (i < pauses.length) await sleep(pauses[i] as number);
  }
  return p;
}

const answersFor = (token: string) =>
  slack.messages(CHANNEL).filter((m) => m.text.includes(`ANSWER ${token} `));

/**
 * Waits until the token's queue item ended; returns the answer's thread, or null when it failed
 * or never appeared (acked, then lost with serve).
 */
async function settled(token: string, timeoutMs: number): Promise<string | null> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const answer = answersFor(token)[0];
    if (answer) return answer.thread_ts ?? answer.ts;
    const item = await db
      .selectFrom("prompt_queue")
      .select("status")
      .where("content", "like", `%${token} %`)
      .executeTakeFirst();
    if (!item && Date.now() - start > 20_000) return null;
    if (item && !["queued", "running", "done"].includes(item.status)) return null;
    await sleep(250);
  }
  return null;
}

async function conversation(c: number): Promise<void> {
  await sleep(c * rand(1_000, 2_500));
  const first = `SOAK-${c}-0`;
  const asked = await send(
    first,
    () =>
      slashCommandBody({
        text: `ask demo ${first} please answer`,
        user_id: USER,
        channel_id: CHANNEL,
        team_id: TEAM,
        response_url: slack.responseUrl(`${first}-${Date.now()}`),
      }),
    "form",
  );
  if (!asked.acked) return;
  let thread = await settled(first, 90_000);
  for (let f = 1; f <= F && thread; f++) {
    const token = `SOAK-${c}-${f}`;
    if (c % 3 === 1 && f === 1 && slow.size < W) slow.add(token);
    const ts = `1900000000.${String(++eventSeq).padStart(6, "0")}`;
    const eventId = `EvSoak${c}x${f}`;
    const threadTs = thread;
    const p = await send(
      token,
      () =>
        eventBody({
          event: messageEvent({
            user: USER,
            channel: CHANNEL,
            text: `${token} and then?`,
            ts,
            thread_ts: threadTs,
          }),
          event_id: eventId,
          team_id: TEAM,
          bot_user_id: slack.botUserId,
        }),
      "json",
    );
    if (!p.acked) return;
    thread = (await settled(token, 90_000)) ?? thread;
  }
}

// ---- chaos: serve kills, worker kills, a Slack outage ----
/** Whether the current serve answers HTTP (a kill is only counted on a serve that was up). */
async function serveUp(): Promise<boolean> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const ok = serve
      ? await fetch(`http://127.0.0.1:${port}/healthz`).then(
          () => true,
          () => false,
        )
      : false;
    if (ok) return true;
    await sleep(100);
  }
  return false;
}

async function killer(): Promise<void> {
  for (let k = 0; k < K; k++) {
    await sleep(rand(3_000, 7_000));
    await serveUp();
    if (k % 2) {
      killOnNextAck = true;
      const until = Date.now() + 20_000;
      while (killOnNextAck && Date.now() < until) await sleep(50);
      if (killOnNextAck) {
        killOnNextAck = false;
        await killServe("random"); // no ack came in time
      }
    } else await killServe("random");
  }
}

async function workerKiller(done: () => boolean): Promise<void> {
  const killed = new Set<string>();
  while (!done() && kills.workers < W) {
    const running = await db
      .selectFrom("prompt_queue")
      .select(["id", "content", "worker_pid", "codex_pid"])
      .where("status", "=", "running")
      .execute();
    for (const r of running) {
      const token = r.content.match(/SOAK-\d+-\d+/)?.[0];
      if (!token || !slow.has(token) || killed.has(token) || !r.worker_pid || !r.codex_pid) continue;
      killed.add(token);
      killGroup(r.worker_pid, "SIGKILL");
      kills.workers++;
      say(`worker of ${token} SIGKILLed mid-turn`);
    }
    await sleep(200);
  }
}

async function slackTrouble(): Promise<void> {
  await sleep(12_000);
  say("Slack outage: every call answers HTTP 500 for 15 s");
  slack.outage(true, 500);
  await sleep(15_000);
  slack.outage(false);
  say("Slack back: 429s, then posts stored whose response is lost");
  slack.failNext("chat.postMessage", { status: 429, retryAfter: 1 }, 6);
  await sleep(5_000);
  slack.failNext("chat.postMessage", { status: 200, dropResponse: true }, 3);
}

// ---- the run ----
const orphanScan = (): number[] =>
  fs
    .readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .filter((n) => {
      try {
        return fs.readFileSync(`/proc/${n}/environ`, "utf8").includes(`CODEXPI_DATA_DIR=${config.dataDir}\0`);
      } catch {
        return false;
      }
    })
    .map(Number);

let exitCode = 0;
try {
  startServe();
  let allDone = false;
  const conversations = Promise.all(Array.from({ length: N }, (_, c) => conversation(c)));
  const chaos = Promise.all([killer(), slackTrouble(), workerKiller(() => allDone)]);
  await conversations;
  allDone = true;
  await chaos;
  say("drain: waiting for every item to end and the outbox to empty");
  const drainUntil = Date.now() + 120_000;
  while (Date.now() < drainUntil) {
    const open = await db
      .selectFrom("prompt_queue")
      .select("id")
      .where("status", "in", ["queued", "running"])
      .execute();
    const pending = await db.selectFrom("outbox").select("id").where("status", "=", "pending").execute();
    if (!open.length && !pending.length) break;
    await sleep(500);
  }
  await sleep(2_000); // a last post in flight
  finished = true;
  const last = serve as ChildProcess | null;
  serve = null;
  const exited = last ? new Promise<number | null>((r) => last.once("exit", (code) => r(code))) : null;
  last?.kill("SIGTERM");
  const stopped = exited
    ? await Promise.race([exited, sleep(40_000).then(() => "hung" as const)])
    : "not running";
  await sleep(2_000);
  const orphans = orphanScan();
  for (const pid of orphans) killTree(pid, "SIGKILL");

  // ---- figures ----
  const acked = prompts.filter((p) => p.acked);
  const rows = await db.selectFrom("prompt_queue").select(["content", "status", "error_code"]).execute();
  const itemOf = (token: string) => rows.find((r) => r.content.includes(`${token} `));
  let answered = 0;
  let duplicated = 0;
  const lostNeverQueued: string[] = [];
  const lostNotPosted: string[] = [];
  const stuck: string[] = [];
  const failed: Record<string, number> = {};
  for (const p of acked) {
    const item = itemOf(p.token);
    const posted = answersFor(p.token).length;
    if (posted > 1) duplicated++;
    if (!item) lostNeverQueued.push(p.token);
    else if (item.status === "done") posted ? answered++ : lostNotPosted.push(p.token);
    else if (item.status === "queued" || item.status === "running") stuck.push(p.token);
    else failed[item.error_code ?? item.status] = (failed[item.error_code ?? item.status] ?? 0) + 1;
  }
  const lost = lostNeverQueued.length + lostNotPosted.length;
  const injected = slack.calls.filter((c) => c.injected);
  const notAcked = prompts.filter((p) => !p.acked).map((p) => `${p.token} [${p.answers.join(",")}]`);
  const sorted = [...takeovers].sort((a, b) => a - b);
  process.stdout.write(
    [
      `soak: ${N} conversations × (1 + ${F} follow-ups) through codexpi serve; ${K} serve SIGKILLs, ${W} worker kills, a Slack outage`,
      `  prompts sent ${prompts.length}, acked ${acked.length} (not acked after retries: ${prompts.length - acked.length}; attempts refused while serve was down: ${prompts.reduce((n, p) => n + p.attempts, 0) - prompts.length})`,
      ...(notAcked.length ? [`  not acked: ${notAcked.join(" ")}`] : []),
      `  answered ${answered}; failed (an item that ended failed, e.g. its worker killed mid-turn) ${Object.values(failed).reduce((a, b) => a + b, 0)} ${JSON.stringify(failed)}`,
      `  lost ${lost} (acked, never queued: ${lostNeverQueued.length}${lostNeverQueued.length ? ` ${lostNeverQueued.join(" ")}` : ""}; done, answer never posted: ${lostNotPosted.length}${lostNotPosted.length ? ` ${lostNotPosted.join(" ")}` : ""})`,
      `  duplicated ${duplicated}; stuck ${stuck.length}; orphans ${orphans.length}`,
      `  serve kills ${kills.random + kills.afterAck} (right after an ack: ${kills.afterAck}, random: ${kills.random}); worker kills ${kills.workers}`,
      `  takeover (restart → lease held by the new serve): median ${fmt(median(sorted))}, max ${fmt(sorted.at(-1) ?? Number.NaN)} over ${sorted.length} restarts`,
      `  Slack faults injected: ${injected.filter((c) => c.status === 500).length} × 500, ${injected.filter((c) => c.status === 429).length} × 429, ${injected.filter((c) => c.dropped).length} stored then response lost`,
      `  serve exits on its own (restarted): ${selfExits.length}${selfExits.length ? ` (exit ${selfExits.join(", ")})` : ""}`,
      `  final SIGTERM: ${stopped === "hung" ? "serve did not stop within 40 s" : `serve exited ${stopped}`}; ${((Date.now() - started) / 1000).toFixed(0)} s in all; logs kept in ${dir}`,
      `reproduce: npm run build && node dist/scripts/soak.js ${N} ${K} ${F} ${W}`,
      "",
    ].join("\n"),
  );
  exitCode = lost || duplicated || orphans.length || stuck.length ? 1 : 0;
} finally {
  const s = serve as ChildProcess | null;
  s?.kill("SIGKILL");
  for (const pid of orphanScan()) killTree(pid, "SIGKILL");
  await db.destroy();
  await slack.close();
  await model.close();
  fs.rmSync(home.dir, { recursive: true, force: true });
}
process.exit(exitCode);
