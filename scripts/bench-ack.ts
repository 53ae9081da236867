// Ack latency of /codex under load: 50 concurrent signed `/codex status` and `/codex ask` requests
// per round at codexpi (`codexpi serve`, HTTP mode, with the notifier posting and each ask's
// post-ack work — enqueue, dispatch, response — happening, while four agents keep finishing and
// writing their outcomes), and at a bare Bolt app that only acks; rounds alternate in one run.
// Prints both p50/p99, their ratio at concurrency 50 (issue 32's target: p99 ratio <= 1.3), and
// how many durable commits the intake journal took for those requests (group commit).
// Then the lock run: a foreign process holds the main database's write lock for 10 s while
// rounds of 20 requests a second go to codexpi; every ack must stay under 1 s, and every request
// must be answered (its response URL) once the lock is gone.
//   npm run build && node dist/scripts/bench-ack.js [rounds]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../src/config.js";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { startFakeSlack } from "../test/support/fakeSlack.js";
import { postSigned, slashCommandBody } from "../test/support/slackRequests.js";
import { fmt, median, percentile } from "./benchStats.js";

const rounds = Number(process.argv[2] ?? 20);
/** Requests sent at once per round (the figure issue 32 gives the target at). */
const CONCURRENCY = 50;
const SECRET = "bench-secret";
const METRICS_TOKEN = "bench-metrics-token";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const children: ChildProcess[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

function start(args: string[], env: NodeJS.ProcessEnv, waitFor: RegExp | null): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  if (!waitFor) return Promise.resolve(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start`)), 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (waitFor.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)));
  });
}

async function waitHttp(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

/** The intake journal's counters from codexpi's /metrics (issue 32: one fsync for a burst). */
async function journalCommits(base: string): Promise<{ commits: number; requests: number }> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return { commits: value("codexpi_intake_commits_total"), requests: value("codexpi_intake_requests_total") };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-ack-"));
const slack = await startFakeSlack({ teamId: "T0001" });
try {
  const env = {
    ...process.env,
    CODEXPI_DATA_DIR: dir,
    SLACK_BOT_TOKEN: "xoxb-bench",
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_TEAM_ID: "T0001",
    HOST: "127.0.0.1",
    LOG_LEVEL: "error",
  };
  const config = parseConfig(env);
  const db = await openMigrated(config.database);
  fs.mkdirSync(path.join(dir, "demo"));
  const project = await addProject(db, systemClock, { name: "demo", path: path.join(dir, "demo") });
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
    "bench",
  );
  await db.destroy();

  const appPort = await freePort();
  const barePort = await freePort();
  for (let i = 0; i < Number(process.env.BENCH_WRITERS ?? 4); i++)
    await start(
      [
        path.join(root, "dist/scripts/bench-ack-writer.js"),
        config.databasePath,
        project.id,
        process.env.BENCH_WRITER_PAUSE ?? "25",
      ],
      env,
      /ready/,
    );
  await start(
    [
      ...(process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
      path.join(root, "dist/bin/main.js"),
      "serve",
    ],
    {
      ...env,
      PORT: String(appPort),
      HEALTH_PORT: "0",
      CODEXPI_METRICS_PORT: "0",
      CODEXPI_METRICS_TOKEN: METRICS_TOKEN,
    },
    null,
  );
  await start([path.join(root, "dist/scripts/bare-bolt.js"), String(barePort), SECRET], env, /ready/);
  await waitHttp(`http://127.0.0.1:${appPort}/healthz`);

  const targets = { codexpi: `http://127.0.0.1:${appPort}`, bare: `http://127.0.0.1:${barePort}` };
  const latencies: Record<keyof typeof targets, number[]> = { codexpi: [], bare: [] };
  let n = 0;
  const fire = async (base: string, size = CONCURRENCY, ids: string[] = []) => {
    const requests = Array.from({ length: size }, (_, i) => {
      const text = i % 2 ? "status" : `ask demo benchmark prompt ${++n}`;
      const id = `b${n}-${i}`;
      ids.push(id);
      const body = slashCommandBody({
        text,
        user_id: "UBENCH",
        channel_id: "CBENCH",
        team_id: "T0001",
        response_url: slack.responseUrl(id),
      });
      return postSigned(base, "/slack/events", body, "form", SECRET);
    });
    const results = await Promise.all(requests);
    for (const r of results) if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
    return results.map((r) => r.elapsedMs);
  };
  // Warm-up, then alternate so that both see the same machine conditions.
  await fire(targets.codexpi);
  await fire(targets.bare);
  for (let r = 0; r < rounds; r++) {
    for (const name of (r % 2 ? ["bare", "codexpi"] : ["codexpi", "bare"]) as Array<keyof typeof targets>) {
      latencies[name].push(...(await fire(targets[name])));
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const p50 = { codexpi: median(latencies.codexpi), bare: median(latencies.bare) };
  const p99 = { codexpi: percentile(latencies.codexpi, 99), bare: percentile(latencies.bare, 99) };
  const asked = slack.calls.filter((c) => c.method === "chat.postMessage").length;
  const journal = await journalCommits(targets.codexpi);
  process.stdout.write(
    [
      `ack latency of /codex, ${rounds} rounds × ${CONCURRENCY} concurrent signed requests (half status, half ask), 4 agents writing outcomes`,
      `  codexpi:   p50 ${fmt(p50.codexpi)}  p99 ${fmt(p99.codexpi)}  (${latencies.codexpi.length} requests)`,
      `  bare Bolt: p50 ${fmt(p50.bare)}  p99 ${fmt(p99.bare)}  (${latencies.bare.length} requests)`,
      `  ratio codexpi/bare at concurrency ${CONCURRENCY}: p50 ${(p50.codexpi / p50.bare).toFixed(2)}  p99 ${(p99.codexpi / p99.bare).toFixed(2)}  (target: p99 ratio <= 1.3, p99 < 100 ms)`,
      `  intake journal: ${journal.requests} requests recorded in ${journal.commits} durable commits (fsyncs) before their acks`,
      `  post-ack work seen by Slack: ${slack.responses.length} ephemeral responses, ${asked} messages posted by the notifier`,
      "",
    ].join("\n"),
  );

  // The lock run: a foreign writer holds the main database's write lock for 10 s.
  const HOLD_MS = 10_000;
  const locked = await start(
    [path.join(root, "dist/scripts/bench-ack-writer.js"), config.databasePath, "hold", String(HOLD_MS)],
    env,
    /locked/,
  );
  const heldAt = Date.now();
  const released = new Promise<number>((resolve) => locked.once("exit", () => resolve(Date.now())));
  const underLock: number[] = [];
  const ids: string[] = [];
  while (Date.now() - heldAt < HOLD_MS - 1_000) {
    const started = Date.now();
    underLock.push(...(await fire(targets.codexpi, 20, ids)));
    await new Promise((res) => setTimeout(res, Math.max(0, 1_000 - (Date.now() - started))));
  }
  const releasedAt = await released;
  // An ask's "Working…" is deleted through its response URL once its root is posted: not an answer.
  const answers = () =>
    slack.responses.filter((r) => !(r.body as { delete_original?: boolean }).delete_original);
  const answered = () => ids.filter((id) => answers().some((r) => r.id === id)).length;
  const deadline = Date.now() + 120_000;
  while (answered() < ids.length && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
  const allAnsweredAfter = Date.now() - releasedAt;
  const duplicated = ids.filter((id) => answers().filter((r) => r.id === id).length > 1).length;
  process.stdout.write(
    [
      `lock run: a foreign process held the main database's write lock for ${HOLD_MS / 1000} s; ${underLock.length} requests (20 a second, half status, half ask) meanwhile`,
      `  codexpi acks under the lock: p50 ${fmt(median(underLock))}  p99 ${fmt(percentile(underLock, 99))}  max ${fmt(Math.max(...underLock))}  over 1 s: ${underLock.filter((ms) => ms >= 1_000).length}  (target: every ack < 1 s)`,
      `  answered afterwards: ${answered()}/${ids.length} (all within ${fmt(allAnsweredAfter)} of the release), answered twice: ${duplicated}`,
      `reproduce: npm run build && node dist/scripts/bench-ack.js ${rounds}`,
      "",
    ].join("\n"),
  );
} finally {
  for (const c of children) c.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  for (const c of children) c.kill("SIGKILL");
  await slack.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
