// Soak of the several-machines topology on one PostgreSQL: two `codexpi serve` processes (one
// coordinator by lease, the other answering Slack), two `codexpi host` processes (project alpha
// placed on hostA, beta on hostB), the real Codex binary against the fake model, Slack faked on
// 127.0.0.1. N conversations (an ask, then follow-ups as thread replies) go to both serve
// instances; mid-way the coordinator serve is SIGKILLed (never restarted), then hostA and its
// workers are SIGKILLed (a machine lost): its running items are interrupted after the host TTL,
// alpha is moved to hostB, and the person re-asks each interrupted prompt in its thread.
// Prints sent, acked, answered exactly once, lost, duplicated (answered twice or run twice:
// model requests per prompt), interrupted and retried, failover time and host loss time.
//   npm run build && node dist/scripts/soak-multi.js [conversations=200] [followUps=1] [spacingMs=250]
// Bounded (CODEXPI_SOAK_LIMIT_S, default 1500 s); every process and temp dir is cleaned up.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { killGroup, killTree } from "../src/engine/system/processes.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { FAKE_KEY_ENV, makeCodexHome } from "../test/support/codexHome.js";
import { inputText, startFakeModel } from "../test/support/fakeModel.js";
import { startFakeSlack } from "../test/support/fakeSlack.js";
import { startPostgres } from "../test/support/postgresServer.js";
import { eventBody, messageEvent, postSigned, slashCommandBody } from "../test/support/slackRequests.js";
import { fmt } from "./benchStats.js";

const [N, F, SPACING] = [200, 1, 250].map((d, i) => Number(process.argv[2 + i] ?? d)) as [
  number,
  number,
  number,
];
const LIMIT_MS = Number(process.env.CODEXPI_SOAK_LIMIT_S ?? 1500) * 1000;
const LEASE_S = 10;
const HOST_TTL_S = 10;
const SECRET = "soak-secret";
const TEAM = "T0001";
const USER = "USOAK";
const CHANNEL = "C1";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const CLI = path.join(root, "dist/bin/main.js");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const say = (line: string) =>
  process.stderr.write(`[soak-multi +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
const TOKEN = /SOAK-\d+-\d+(?:r\d+)?/g;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

// ---- the parts: PostgreSQL, fake Slack, fake model ----
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-soak-multi-"));
const pgServer = await startPostgres();
const admin = new pg.Client({ connectionString: pgServer.adminUrl });
await admin.connect();
await admin.query("CREATE DATABASE codexpi_soak");
await admin.end();
const databaseUrl = Object.assign(new URL(pgServer.adminUrl), { pathname: "/codexpi_soak" }).toString();

/** Model requests per token (the newest token of the input: the prompt being answered). */
const modelTurns = new Map<string, number>();
const slack = await startFakeSlack({ teamId: TEAM });
const model = await startFakeModel({
  respond: (body) => {
    const token = inputText(body).match(TOKEN)?.at(-1) ?? "none";
    modelTurns.set(token, (modelTurns.get(token) ?? 0) + 1);
    return { kind: "text", text: `ANSWER ${token} done` };
  },
});
const home = await makeCodexHome(model.url);
const envOf = (who: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  ...home.env,
  DATABASE_URL: databaseUrl,
  CODEXPI_DATA_DIR: path.join(dir, who),
  CODEXPI_AGENT_ENV: FAKE_KEY_ENV,
  CODEXPI_LEASE_SECONDS: String(LEASE_S),
  CODEXPI_HOST_TTL: String(HOST_TTL_S),
  CODEXPI_TICK: "*/1 * * * * *",
  CODEXPI_LOCALE: "en",
  SLACK_BOT_TOKEN: "xoxb-soak",
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  SLACK_TEAM_ID: TEAM,
  HOST: "127.0.0.1",
  HEALTH_PORT: "0",
  CODEXPI_METRICS_PORT: "0",
  LOG_LEVEL: "warn",
  NO_PROXY: "127.0.0.1,localhost",
  ...extra,
});
const db = await openMigrated({ dialect: "postgres", url: databaseUrl });
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
for (const p of ["alpha", "beta"]) {
  fs.mkdirSync(path.join(dir, p));
  await addProject(db, systemClock, { name: p, path: path.join(dir, p) });
}

// ---- processes: every child in a process group of its own (a host's group holds its workers) ----
const children: ChildProcess[] = [];
function launch(args: string[], who: string, extra: Record<string, string> = {}): ChildProcess {
  const log = fs.openSync(path.join(dir, `${who}.log`), "a");
  const child = spawn(process.execPath, [CLI, ...args], {
    env: envOf(who, extra),
    stdio: ["ignore", log, log],
    detached: true,
  });
  children.push(child);
  return child;
}
const cli = (args: string[]) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: envOf("admin"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    child.stderr.on("data", (d) => {
      out += String(d);
    });
    child.once("exit", (code) => resolve({ code, out }));
  });
async function until<T>(probe: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface Serve {
  name: string;
  child: ChildProcess;
  url: string;
  alive: boolean;
}
async function startServe(name: string): Promise<Serve> {
  const port = await freePort();
  const child = launch(["serve"], name, { PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await until(
    () =>
      fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      ),
    60_000,
    `${name} to answer HTTP`,
  );
  return { name, child, url, alive: true };
}
async function startHost(name: string): Promise<ChildProcess> {
  const child = launch(["host", "--name", name], name);
  await until(
    async () =>
      (await db.selectFrom("hosts").select("name").where("name", "=", name).executeTakeFirst()) !== undefined,
    60_000,
    `host ${name} to register`,
  );
  return child;
}
const leaseOwnerPid = async () =>
  (
    await db.selectFrom("leases").select("owner").where("name", "=", "coordinator").executeTakeFirst()
  )?.owner.split(":")[1];

// ---- the person ----
interface Prompt {
  token: string;
  acked: boolean;
  /** The token of the prompt this one re-asks (an interrupted one), if any. */
  retryOf?: string;
}
const prompts: Prompt[] = [];
const interrupted: string[] = [];
let serves: Serve[] = [];
let eventSeq = 0;
let sentCount = 0;

/** Posts to the given serve, or the other one when it refuses (a person or Slack retrying). */
async function send(
  prefer: number,
  token: string,
  body: () => string,
  type: "form" | "json",
): Promise<Prompt> {
  const p: Prompt = { token, acked: false };
  prompts.push(p);
  sentCount++;
  for (let attempt = 0; attempt < 20 && !p.acked; attempt++) {
    const s = serves[(prefer + attempt) % serves.length] as Serve;
    if (!s.alive) continue;
    const res = await postSigned(s.url, "/slack/events", body(), type, SECRET, {
      timeoutMs: 10_000,
      ...(type === "json" && attempt > 0 ? { retryNum: attempt } : {}),
    }).catch(() => null);
    if (res?.status === 200) p.acked = true;
    else await sleep(1_000);
  }
  return p;
}
const answersFor = (token: string) =>
  slack.messages(CHANNEL).filter((m) => m.text.includes(`ANSWER ${token} `));
const itemOf = (token: string) =>
  db
    .selectFrom("prompt_queue")
    .select(["id", "status", "error_code"])
    .where("content", "like", `%${token} %`)
    .executeTakeFirst();

/** The answer's thread; "interrupted" when its item was interrupted; null when it failed or timed out. */
async function settled(token: string, timeoutMs: number): Promise<string | "interrupted" | null> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const answer = answersFor(token)[0];
    if (answer) return answer.thread_ts ?? answer.ts;
    const item = await itemOf(token);
    if (item?.error_code === "interrupted") return "interrupted";
    if (item && !["queued", "running", "done"].includes(item.status)) return null;
    await sleep(300);
  }
  return null;
}

function followUp(prefer: number, token: string, thread: string, eventId: string, retryOf?: string) {
  const ts = `1900000000.${String(++eventSeq).padStart(6, "0")}`;
  return send(
    prefer,
    token,
    () =>
      eventBody({
        event: messageEvent({
          user: USER,
          channel: CHANNEL,
          text: `${token} and then?`,
          ts,
          thread_ts: thread,
        }),
        event_id: eventId,
        team_id: TEAM,
        bot_user_id: slack.botUserId,
      }),
    "json",
  ).then((p) => {
    if (retryOf) p.retryOf = retryOf;
    return p;
  });
}

function ask(c: number, project: string, token: string, retryOf?: string): Promise<Prompt> {
  return send(
    c,
    token,
    () =>
      slashCommandBody({
        text: `ask ${project} ${token} please answer`,
        user_id: USER,
        channel_id: CHANNEL,
        team_id: TEAM,
        response_url: slack.responseUrl(`${token}-${Date.now()}`),
      }),
    "form",
  ).then((p) => {
    if (retryOf) p.retryOf = retryOf;
    return p;
  });
}

async function conversation(c: number): Promise<void> {
  await sleep(c * SPACING);
  const project = c % 2 ? "beta" : "alpha";
  const first = `SOAK-${c}-0`;
  if (!(await ask(c, project, first)).acked) return;
  let token = first;
  let thread: string | null = null; // the conversation's thread, once an answer showed it
  let outcome = await settled(token, 600_000);
  for (let f = 0; f <= F && outcome !== null; f++) {
    if (outcome === "interrupted") {
      // The person asks again: in the thread when there is one, else as a new /codex ask.
      interrupted.push(token);
      const again = `${token}r1`;
      const p = thread
        ? await followUp(c + 1, again, thread, `EvRetry${c}x${f}`, token)
        : await ask(c + 1, project, again, token);
      if (!p.acked) return;
      outcome = await settled(again, 600_000);
      token = again;
      if (outcome === "interrupted") {
        interrupted.push(again);
        return; // interrupted twice: counted, not retried again
      }
      if (outcome === null) return;
    }
    thread = outcome;
    if (f === F) return;
    const next = `SOAK-${c}-${f + 1}`;
    const p = await followUp(c + 1, next, outcome, `EvSoak${c}x${f + 1}`);
    if (!p.acked) return;
    token = next;
    outcome = await settled(token, 600_000);
  }
}

// ---- chaos: the coordinator serve, then hostA (and its workers) ----
const figures = {
  coordinatorKilledAt: 0,
  leaseTakenMs: Number.NaN,
  firstPostMs: Number.NaN,
  hostKilledAt: 0,
  runningOnHost: 0,
  hostLossMs: Number.NaN,
  moved: "not attempted",
};
async function killCoordinator(): Promise<void> {
  await until(async () => sentCount >= Math.floor(N * 0.4), LIMIT_MS, "40% of the prompts sent");
  const pid = await leaseOwnerPid();
  const coordinator = serves.find((s) => String(s.child.pid) === pid);
  if (!coordinator) throw new Error(`no serve holds the coordinator lease (${pid})`);
  const postsBefore = slack.messages(CHANNEL).length;
  coordinator.alive = false;
  killGroup(coordinator.child.pid as number, "SIGKILL");
  figures.coordinatorKilledAt = Date.now();
  say(`coordinator ${coordinator.name} (pid ${pid}) SIGKILLed`);
  const other = serves.find((s) => s !== coordinator) as Serve;
  await until(async () => (await leaseOwnerPid()) === String(other.child.pid), 120_000, "the lease takeover");
  figures.leaseTakenMs = Date.now() - figures.coordinatorKilledAt;
  const postsAtTakeover = Math.max(postsBefore, slack.messages(CHANNEL).length);
  await until(
    async () => slack.messages(CHANNEL).length > postsAtTakeover,
    120_000,
    "a post by the new coordinator",
  );
  figures.firstPostMs = Date.now() - figures.coordinatorKilledAt;
  say(
    `${other.name} holds the lease after ${fmt(figures.leaseTakenMs)}, posts after ${fmt(figures.firstPostMs)}`,
  );
}
/** Processes whose data dir is under `prefix` (one "machine" here, or all of them). */
const processesOf = (prefix: string): number[] =>
  fs
    .readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .filter((n) => {
      try {
        return fs.readFileSync(`/proc/${n}/environ`, "utf8").includes(`CODEXPI_DATA_DIR=${prefix}`);
      } catch {
        return false;
      }
    })
    .map(Number);
const orphanScan = () => processesOf(`${dir}/`);

async function loseHost(hostA: ChildProcess): Promise<void> {
  await until(async () => sentCount >= Math.floor(N * 0.6), LIMIT_MS, "60% of the prompts sent");
  const running = async () =>
    db
      .selectFrom("prompt_queue as q")
      .innerJoin("conversations as c", "c.id", "q.conversation_id")
      .innerJoin("projects as p", "p.id", "c.project_id")
      .select(["q.id", "q.worker_pid", "q.codex_pid"])
      .where("p.host", "=", "hostA")
      .where("q.status", "=", "running")
      .execute();
  // Wait (up to 20 s) for a turn in flight on hostA, so that the loss interrupts something.
  await until(async () => (await running()).length > 0, 20_000, "a running item on hostA").catch(
    () => undefined,
  );
  const before = await running();
  figures.runningOnHost = before.length;
  // The machine is lost: the host and every process it started, standby and finishing workers
  // included (they run in process groups of their own, so the host's group is not enough).
  killGroup(hostA.pid as number, "SIGKILL");
  figures.hostKilledAt = Date.now();
  for (let round = 0; round < 3; round++) {
    for (const item of await running())
      for (const pid of [item.worker_pid, item.codex_pid]) if (pid) killGroup(pid, "SIGKILL");
    for (const pid of processesOf(path.join(dir, "hostA"))) killTree(pid, "SIGKILL");
    await sleep(100);
  }
  say(`hostA and its workers SIGKILLed with ${before.length} items running`);
  await until(async () => (await running()).length === 0, 180_000, "hostA's items to be interrupted");
  figures.hostLossMs = Date.now() - figures.hostKilledAt;
  say(`hostA's items interrupted after ${fmt(figures.hostLossMs)}; moving alpha to hostB`);
  for (let i = 0; i < 10; i++) {
    const moved = await cli(["project", "move", "alpha", "--to", "hostB"]);
    figures.moved = moved.code === 0 ? moved.out.trim() : `failed: ${moved.out.trim()}`;
    if (moved.code === 0) break;
    await sleep(1_000);
  }
  say(`move: ${figures.moved}`);
}

let exitCode = 1;
let timedOut = false;
const limit = setTimeout(() => {
  timedOut = true;
}, LIMIT_MS);
try {
  serves = [await startServe("serveA"), await startServe("serveB")];
  await until(async () => leaseOwnerPid(), 60_000, "a coordinator");
  const hostA = await startHost("hostA");
  await startHost("hostB");
  for (const [p, h] of [
    ["alpha", "hostA"],
    ["beta", "hostB"],
  ] as const) {
    const set = await cli(["project", "set", p, "--host", h]);
    if (set.code !== 0) throw new Error(`project set ${p} --host ${h}: ${set.out}`);
  }
  say(`PostgreSQL, 2 serve, 2 hosts up; sending ${N} conversations × (1 + ${F} follow-ups)`);
  const work = Promise.all(Array.from({ length: N }, (_, c) => conversation(c)));
  const chaos = Promise.all([killCoordinator(), loseHost(hostA)]).catch((err: unknown) => {
    say(`chaos: ${(err as Error).message}`);
  });
  await Promise.race([Promise.all([work, chaos]), until(async () => timedOut, LIMIT_MS + 5_000, "limit")]);
  if (timedOut) say("time limit reached: figures below are for what was done by then");
  say("drain: waiting for open items and the outbox (300 s at most)");
  await until(
    async () => {
      const open = await db
        .selectFrom("prompt_queue")
        .select("id")
        .where("status", "in", ["queued", "running"])
        .execute();
      const pending = await db.selectFrom("outbox").select("id").where("status", "=", "pending").execute();
      return !open.length && !pending.length;
    },
    300_000,
    "drain",
  ).catch(() => undefined);
  await sleep(2_000);

  // ---- figures ----
  const acked = prompts.filter((p) => p.acked);
  const originals = acked.filter((p) => !p.retryOf);
  const retried = new Map(acked.filter((p) => p.retryOf).map((p) => [p.retryOf as string, p.token]));
  let exactlyOnce = 0;
  const lost: string[] = [];
  const answeredTwice: string[] = [];
  const ranTwice: string[] = [];
  for (const p of originals) {
    const tokens = [p.token, ...(retried.has(p.token) ? [retried.get(p.token) as string] : [])];
    const posts = tokens.reduce((n, t) => n + answersFor(t).length, 0);
    for (const t of tokens) {
      if (answersFor(t).length > 1) answeredTwice.push(t);
      // An interrupted turn may have reached the model once before its host died: that is its one run.
      if ((modelTurns.get(t) ?? 0) > 1) ranTwice.push(`${t}×${modelTurns.get(t)}`);
    }
    if (posts === 1) exactlyOnce++;
    else if (posts === 0) {
      const item = await itemOf(tokens.at(-1) as string);
      const why = !item
        ? "never queued"
        : item.error_code
          ? `${item.status}/${item.error_code}`
          : item.status;
      lost.push(`${p.token}(${why})`);
    }
  }
  const items = await db.selectFrom("prompt_queue").select(["status", "error_code"]).execute();
  const byStatus: Record<string, number> = {};
  for (const i of items) {
    const k = i.error_code ? `${i.status}/${i.error_code}` : i.status;
    byStatus[k] = (byStatus[k] ?? 0) + 1;
  }
  const notAcked = prompts.filter((p) => !p.acked).map((p) => p.token);
  // What the survivor took over from the SIGKILLed serve's intake (its log line per adoption).
  const adopted = fs
    .readFileSync(path.join(dir, "serveB.log"), "utf8")
    .split("\n")
    .filter((l) => l.includes("adopting Slack requests"))
    .reduce((n, l) => n + Number(/"count":(\d+)/.exec(l)?.[1] ?? 0), 0);
  process.stdout.write(
    [
      `soak-multi: ${N} conversations × (1 + ${F} follow-ups) on PostgreSQL; 2 serve (lease ${LEASE_S} s), 2 hosts (TTL ${HOST_TTL_S} s); coordinator and hostA SIGKILLed mid-way`,
      `  sent ${prompts.length} (${retried.size} of them re-asks of interrupted prompts), acked ${acked.length}${notAcked.length ? ` (not acked: ${notAcked.join(" ")})` : ""}`,
      `  answered exactly once ${exactlyOnce} of ${originals.length} prompts acked`,
      `  lost ${lost.length}${lost.length ? ` ${lost.join(" ")}` : ""}`,
      `  duplicated ${answeredTwice.length + ranTwice.length} (answered twice: ${answeredTwice.length}${answeredTwice.length ? ` ${answeredTwice.join(" ")}` : ""}; run twice (model requests per prompt > 1): ${ranTwice.length}${ranTwice.length ? ` ${ranTwice.join(" ")}` : ""})`,
      `  interrupted ${interrupted.length} (running on hostA when it died: ${figures.runningOnHost}), retried ${retried.size}`,
      `  failover: coordinator SIGKILL → other serve holds the lease ${fmt(figures.leaseTakenMs)}, → first post by it ${fmt(figures.firstPostMs)}; requests it had acked and not consumed, adopted by the other: ${adopted}`,
      `  host loss: hostA SIGKILL → its items interrupted ${fmt(figures.hostLossMs)}; ${figures.moved}`,
      `  items by status: ${JSON.stringify(byStatus)}; model requests ${model.requests.length}`,
      `  ${((Date.now() - started) / 1000).toFixed(0)} s in all${timedOut ? " (time limit reached)" : ""}`,
      `reproduce: npm run build && node dist/scripts/soak-multi.js ${N} ${F} ${SPACING}`,
      "",
    ].join("\n"),
  );
  exitCode = lost.length || answeredTwice.length || ranTwice.length || timedOut ? 1 : 0;
} catch (err) {
  say(`failed: ${(err as Error).stack ?? err}`);
} finally {
  clearTimeout(limit);
  for (const c of children) if (c.exitCode === null && c.pid) killGroup(c.pid, "SIGKILL");
  await sleep(500);
  for (const pid of orphanScan()) killTree(pid, "SIGKILL");
  await db.destroy().catch(() => undefined);
  await slack.close();
  await model.close();
  await pgServer.stop();
  if (process.env.CODEXPI_SOAK_KEEP) say(`logs kept in ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  fs.rmSync(home.dir, { recursive: true, force: true });
}
process.exit(exitCode);
