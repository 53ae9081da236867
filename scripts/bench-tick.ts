// Tick duration with the concurrency limit reached (nothing can start): 1,000 queued items over 200
// conversations and 50 running items whose workers are alive, over 1,000 vs 100,000 finished rows
// (each with its user and assistant messages). The cost should follow live work, not history.
//   npm run build && node dist/scripts/bench-tick.js [ticks]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { parseConfig } from "../src/config.js";
import { fixedHostLoad } from "../src/engine/system/hostLoad.js";
import { processStartTime } from "../src/engine/system/processes.js";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { Engine } from "../src/engine/engine.js";
import type { Project } from "../src/engine/schema.js";
import { fmt, median, percentile } from "./benchStats.js";

const ticks = Number(process.argv[2] ?? 200);
const sleepers: ChildProcess[] = [];

async function scenario(history: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-tick-"));
  const config = parseConfig({ CODEXPI_DATA_DIR: dir, LOG_LEVEL: "silent" });
  const db = await openMigrated(config.database);
  const projects: Project[] = [];
  for (let p = 0; p < 5; p++) {
    fs.mkdirSync(path.join(dir, `p${p}`));
    projects.push(await addProject(db, systemClock, { name: `p${p}`, path: path.join(dir, `p${p}`) }));
  }
  await updateGlobalPolicy(
    db,
    systemClock,
    {
      max_concurrent: 50,
      load_pause_percent: 1000,
      memory_pause_percent: 100,
      background_start_hour: 0,
      background_end_hour: 0,
    },
    "bench",
  );
  await db.destroy();

  // Bulk fill with plain prepared statements: the engine's code paths are measured, not the fill.
  const raw = new SQLite(config.databasePath);
  raw.pragma("journal_mode = WAL");
  const now = Date.now();
  let seq = 0;
  const conv = raw.prepare(
    "insert into conversations(id,project_id,title,user_id,status,created_at,updated_at) values (?,?,?,?,?,?,?)",
  );
  const item = raw.prepare(
    "insert into prompt_queue(id,seq,conversation_id,content,status,created_at,started_at,finished_at,priority,origin_kind,attempt,worker_pid,worker_start_time) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const msg = raw.prepare(
    "insert into messages(id,conversation_id,role,content,metadata,queue_id,created_at) values (?,?,?,?,?,?,?)",
  );
  raw.transaction(() => {
    // history: finished items in 1 conversation per 10 items, with both messages
    for (let i = 0; i < history; i++) {
      const c = `hc${Math.floor(i / 10)}`;
      if (i % 10 === 0) conv.run(c, projects[i % 5]!.id, "history", "U1", "completed", now, now);
      item.run(
        `h${i}`,
        ++seq,
        c,
        `prompt ${i}`,
        i % 7 ? "done" : "failed",
        now,
        now,
        now,
        60,
        "user",
        1,
        null,
        null,
      );
      msg.run(`hu${i}`, c, "user", `prompt ${i}`, JSON.stringify({ queue_id: `h${i}` }), `h${i}`, now);
      msg.run(
        `ha${i}`,
        c,
        "assistant",
        `answer ${i} `.repeat(20),
        JSON.stringify({ queue_id: `h${i}` }),
        `h${i}`,
        now,
      );
    }
    // live: 200 conversations, 50 of them running (live workers), 1,000 queued items over all 200
    for (let c = 0; c < 200; c++)
      conv.run(`lc${c}`, projects[c % 5]!.id, "live", "U1", c < 50 ? "running" : "queued", now, now);
    for (let r = 0; r < 50; r++) {
      const s = spawn("sleep", ["600"], { detached: true, stdio: "ignore" });
      s.unref();
      sleepers.push(s);
      item.run(`r${r}`, ++seq, `lc${r}`, "running", "running", now, now, null, 60, "user", 1, s.pid, null);
    }
    for (let q = 0; q < 1000; q++)
      item.run(
        `q${q}`,
        ++seq,
        `lc${q % 200}`,
        `queued ${q}`,
        "queued",
        now,
        null,
        null,
        60,
        "user",
        0,
        null,
        null,
      );
  })();
  // start times read once the stand-in workers exist
  const setStart = raw.prepare("update prompt_queue set worker_start_time=? where id=?");
  for (let r = 0; r < 50; r++)
    setStart.run(processStartTime(sleepers[sleepers.length - 50 + r]!.pid!), `r${r}`);
  raw.pragma("wal_checkpoint(TRUNCATE)");
  raw.close();

  const db2 = await openMigrated(config.database);
  const engine = new Engine({
    config,
    db: db2,
    host: fixedHostLoad(),
    spawner: async () => {
      throw new Error("nothing may start: the limit is reached");
    },
  });
  const durations: number[] = [];
  for (let i = 0; i < ticks + 10; i++) {
    const t0 = performance.now();
    const r = (await engine.tick()) as { state: string; started?: string[]; reaped?: string[] };
    const dt = performance.now() - t0;
    if (r.state !== "processed" || r.started?.length || r.reaped?.length) {
      throw new Error(`unexpected tick: ${JSON.stringify(r)}`);
    }
    if (i >= 10) durations.push(dt);
  }
  await db2.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
  for (const s of sleepers.splice(0)) s.kill("SIGKILL");
  return durations;
}

try {
  const small = await scenario(1_000);
  const large = await scenario(100_000);
  const ratio = median(large) / median(small);
  process.stdout.write(
    [
      `tick duration, ${ticks} ticks each: 1,000 queued over 200 conversations, 50 running with live workers, limit reached`,
      `  history   1,000 finished rows: median ${fmt(median(small))}  p95 ${fmt(percentile(small, 95))}`,
      `  history 100,000 finished rows: median ${fmt(median(large))}  p95 ${fmt(percentile(large, 95))}`,
      `  ratio of medians: ${ratio.toFixed(2)}  (target: median < 20 ms, ratio <= 1.5)`,
      `reproduce: npm run build && node dist/scripts/bench-tick.js ${ticks}`,
      "",
    ].join("\n"),
  );
} finally {
  for (const s of sleepers) s.kill("SIGKILL");
}
