// Ack latency of /codex under load: 50 concurrent signed `/codex status` and `/codex ask` requests
// per round at codexpi (`codexpi serve`, HTTP mode, with the notifier posting and each ask's
// post-ack work — enqueue, dispatch, response — happening, while four agents keep finishing and
// writing their outcomes), and at a bare Bolt app that only acks; rounds alternate in one run.
//   npm run build && node dist/scripts/bench-ack.js [rounds]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../src/config.js";
import { addProject } from "../src/engine/agents/projects.js";
import { updateGlobalPolicy } from "../src/engine/agents/policies.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { startFakeSlack } from "../test/support/fakeSlack.js";
import { postSigned, slashCommandBody } from "../test/support/slackRequests.js";
import { fmt, median, percentile } from "./benchStats.js";

const rounds = Number(process.argv[2] ?? 20);
const SECRET = "bench-secret";
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
  const db = await openMigrated(config.databasePath);
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
      path.join(root, "dist/src/main.js"),
      "serve",
    ],
    { ...env, PORT: String(appPort), HEALTH_PORT: "0" },
    null,
  );
  await start([path.join(root, "dist/scripts/bare-bolt.js"), String(barePort), SECRET], env, /ready/);
  await waitHttp(`http://127.0.0.1:${appPort}/healthz`);

  const targets = { codexpi: `http://127.0.0.1:${appPort}`, bare: `http://127.0.0.1:${barePort}` };
  const latencies: Record<keyof typeof targets, number[]> = { codexpi: [], bare: [] };
  let n = 0;
  const fire = async (base: string) => {
    const requests = Array.from({ length: 50 }, (_, i) => {
      const text = i % 2 ? "status" : `ask demo benchmark prompt ${++n}`;
      const body = slashCommandBody({
        text,
        user_id: "UBENCH",
        channel_id: "CBENCH",
        team_id: "T0001",
        response_url: slack.responseUrl(`b${n}-${i}`),
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
  process.stdout.write(
    [
      `ack latency of /codex, ${rounds} rounds × 50 concurrent signed requests (half status, half ask), 4 agents writing outcomes`,
      `  codexpi:   p50 ${fmt(p50.codexpi)}  p99 ${fmt(p99.codexpi)}  (${latencies.codexpi.length} requests)`,
      `  bare Bolt: p50 ${fmt(p50.bare)}  p99 ${fmt(p99.bare)}  (${latencies.bare.length} requests)`,
      `  ratio codexpi/bare: p50 ${(p50.codexpi / p50.bare).toFixed(2)}  p99 ${(p99.codexpi / p99.bare).toFixed(2)}  (target: ratio <= 1.3, p99 < 100 ms)`,
      `  post-ack work seen by Slack: ${slack.responses.length} ephemeral responses, ${asked} messages posted by the notifier`,
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
