// Enqueue-to-spawn latency: from the enqueue's commit to the worker having claimed its row and
// started the Codex process (codex pid recorded). Real worker processes and the real Codex binary
// against the fake model on 127.0.0.1.
// A third figure, enqueue to the model's first request, includes Codex's own start-up inside its
// jail (the pid is recorded when bubblewrap starts, before the jail is set up).
//   npm run build && node dist/scripts/bench-dispatch.js [iterations]
//   CODEXPI_JAIL=off node dist/scripts/bench-dispatch.js [iterations]   (what the jail costs)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../src/config.js";
import { startConversation } from "../src/engine/conversations/conversations.js";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { processSpawner } from "../src/engine/dispatch/spawner.js";
import { warmSpawner } from "../src/engine/dispatch/warmSpawner.js";
import { silentLogger } from "../src/logger.js";
import { waitForItem } from "../src/engine/conversations/waitFor.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { Engine } from "../src/engine/engine.js";
import { makeCodexHome } from "../test/support/codexHome.js";
import { startFakeModel } from "../test/support/fakeModel.js";
import { fmt, median, percentile } from "./benchStats.js";

const iterations = Number(process.argv[2] ?? 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-dispatch-"));
const fake = await startFakeModel();
const home = await makeCodexHome(fake.url);
const config = parseConfig({
  CODEXPI_DATA_DIR: path.join(dir, "data"),
  CODEX_HOME: home.dir,
  CODEXPI_AGENT_ENV: "FAKE_OPENAI_API_KEY",
  CODEXPI_JAIL: process.env.CODEXPI_JAIL ?? "bwrap",
  LOG_LEVEL: "silent",
});
const db = await openMigrated(config.database);
const benchEnv = { ...process.env, ...home.env };
const warm = warmSpawner(config, silentLogger, benchEnv);
const engines = {
  // what `serve` uses: a standby worker, loaded ahead of time
  warm: new Engine({ config, db, spawner: warm }),
  // what the CLI and a finishing worker use: a fresh node process
  cold: new Engine({ config, db, spawner: processSpawner(config, benchEnv) }),
};
try {
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
  const lines = [
    `enqueue-to-spawn latency, ${iterations} prompts per path (real worker processes, real Codex 0.171.0, fake model, jail ${config.jail})`,
  ];
  for (const [name, engine] of Object.entries(engines)) {
    const latencies: number[] = [];
    const claims: number[] = [];
    const firstRequests: number[] = [];
    for (let i = 0; i < iterations + 2; i++) {
      await new Promise((r) => setTimeout(r, 700)); // let the next standby finish loading
      const { item } = await startConversation(db, systemClock, project, `bench ${i}`, "bench");
      const committed = Date.now(); // the enqueue's transaction has committed
      const before = fake.requests.length;
      await engine.dispatch();
      const deadline = Date.now() + 60_000;
      while (fake.requests.length <= before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 2));
      const requested = Date.now();
      const done = await waitForItem(db, item.id, 60_000, 20);
      if (done.status !== "done" || !done.codex_started_at || !done.claimed_at)
        throw new Error(`item ${i} ended ${done.status}: ${done.error}`);
      if (i < 2) continue; // warm-up: page cache, first Codex start
      latencies.push(done.codex_started_at - committed);
      claims.push(done.claimed_at - committed);
      firstRequests.push(requested - committed);
    }
    lines.push(
      `  ${name.padEnd(4)} worker claimed its row:   median ${fmt(median(claims))}  p95 ${fmt(percentile(claims, 95))}`,
      `  ${name.padEnd(4)} Codex started (pid kept): median ${fmt(median(latencies))}  p95 ${fmt(percentile(latencies, 95))}${name === "warm" ? "  (target: median < 150 ms)" : ""}`,
      `  ${name.padEnd(4)} model's first request:   median ${fmt(median(firstRequests))}  p95 ${fmt(percentile(firstRequests, 95))}`,
    );
  }
  lines.push(`reproduce: npm run build && node dist/scripts/bench-dispatch.js ${iterations}`, "");
  process.stdout.write(lines.join("\n"));
} finally {
  await warm.close();
  await db.destroy();
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home.dir, { recursive: true, force: true });
}
