// The engine's hot paths side by side on SQLite and PostgreSQL (an embedded server started here):
//  - enqueue → Codex started (warm): the enqueue's commit to the worker having claimed its row and
//    started Codex (pid recorded); real standby workers and the real Codex binary, fake model;
//  - tick with 1,000 live items: 1,000 queued over 200 conversations and 50 running with live
//    workers, the concurrency limit reached (what bench-tick measures, on both dialects);
//  - claims per second with 4 hosts: 4 processes, each claiming its own host's items through the
//    real claim (claimSlots, placement, limit 4 per host) from one database; a claimed item is then
//    marked done by a plain update (no Codex: the claim path alone is measured).
//   npm run build && node dist/scripts/bench-dialects.js [dispatches=20] [ticks=100] [claimSeconds=10]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { parseConfig } from "../src/config.js";
import { startConversation } from "../src/engine/conversations/conversations.js";
import { claimSlots } from "../src/engine/dispatch/dispatcher.js";
import { fixedHostLoad } from "../src/engine/system/hostLoad.js";
import { processStartTime } from "../src/engine/system/processes.js";
import { addProject } from "../src/engine/projects/projects.js";
import { updateGlobalPolicy } from "../src/engine/projects/policies.js";
import { waitForItem } from "../src/engine/conversations/waitFor.js";
import { warmSpawner } from "../src/engine/dispatch/warmSpawner.js";
import { systemClock } from "../src/engine/clock.js";
import { type Database, type DatabaseTarget, openDatabase, openMigrated } from "../src/engine/database.js";
import { Engine } from "../src/engine/engine.js";
import type { Project } from "../src/engine/schema.js";
import { silentLogger } from "../src/logger.js";
import { makeCodexHome } from "../test/support/codexHome.js";
import { startFakeModel } from "../test/support/fakeModel.js";
import { startPostgres, type PostgresServer } from "../test/support/postgresServer.js";
import { fmt, median, percentile } from "./benchStats.js";

const HOSTS = 4;
const self = fileURLToPath(import.meta.url);

// ---- child mode: one host; once told to go (a line on stdin), claims for `seconds`; prints its count ----
if (process.argv[2] === "--claimer") {
  const [url, host, seconds] = process.argv.slice(3) as [string, string, string];
  const target: DatabaseTarget = url.startsWith("postgres")
    ? { dialect: "postgres", url }
    : { dialect: "sqlite", file: url.slice("sqlite:".length) };
  const db = openDatabase(target);
  const load = fixedHostLoad();
  await db.selectFrom("projects").select("id").limit(1).execute(); // connected before the clock starts
  process.stdout.write("ready\n");
  await new Promise((r) => process.stdin.once("data", r));
  const end = Date.now() + Number(seconds) * 1000;
  let claims = 0;
  let busy = 0;
  let toFinish: string[] = [];
  // SQLite: a statement that waited longer than the busy timeout (5 s) for the write lock gets
  // SQLITE_BUSY; counted, and tried again (what a host's next turn does).
  const orBusy = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      if ((err as { code?: string }).code !== "SQLITE_BUSY") throw err;
      busy++;
    }
  };
  while (Date.now() < end) {
    if (toFinish.length)
      await orBusy(async () => {
        await db
          .updateTable("prompt_queue")
          .set({ status: "done", finished_at: Date.now() })
          .where("id", "in", toFinish)
          .execute();
        toFinish = [];
      });
    else
      await orBusy(async () => {
        const { started } = await claimSlots(db, systemClock, load, host);
        claims += started.length;
        toFinish = started.map((c) => c.id);
      });
  }
  await db.destroy();
  process.stdout.write(`claims ${claims} busy ${busy}\n`);
  process.exit(0);
}

const [dispatches, ticks, claimSeconds] = [20, 100, 10].map((d, i) => Number(process.argv[2 + i] ?? d)) as [
  number,
  number,
  number,
];

const policy = (max: number) => ({
  max_concurrent: max,
  load_pause_percent: 1000,
  memory_pause_percent: 100,
  background_start_hour: 0,
  background_end_hour: 0,
});

/** A fresh, migrated database of the dialect; `url` is its DATABASE_URL. */
interface Fresh {
  url: string;
  target: DatabaseTarget;
  dir: string;
}
let pgServer: PostgresServer | null = null;
let databases = 0;
async function fresh(dialect: "sqlite" | "postgres"): Promise<Fresh> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-dialects-"));
  if (dialect === "sqlite") {
    const file = path.join(dir, "codexpi.db");
    await (await openMigrated({ dialect, file })).destroy();
    return { url: `sqlite:${file}`, target: { dialect, file }, dir };
  }
  pgServer ??= await startPostgres();
  const name = `bench_${++databases}`;
  const admin = new pg.Client({ connectionString: pgServer.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = Object.assign(new URL(pgServer.adminUrl), { pathname: `/${name}` }).toString();
  await (await openMigrated({ dialect, url })).destroy();
  return { url, target: { dialect, url }, dir };
}

/** Inserts rows in chunks (one statement per chunk; the fill is not what is measured). */
async function insertChunks<T extends "conversations" | "prompt_queue">(
  db: Database,
  table: T,
  rows: Parameters<ReturnType<Database["insertInto"]>["values"]>[0][],
) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 500) as never)
      .execute();
}

const queuedRow = (id: string, seq: number, conversation: string, now: number) => ({
  id,
  seq,
  conversation_id: conversation,
  content: `queued ${id}`,
  status: "queued",
  created_at: now,
  started_at: null,
  finished_at: null,
  priority: 60,
  origin_kind: "user",
  attempt: 0,
  worker_pid: null,
  worker_start_time: null,
});

async function enqueueToCodex(dialect: "sqlite" | "postgres"): Promise<number[]> {
  const f = await fresh(dialect);
  const fake = await startFakeModel();
  const home = await makeCodexHome(fake.url);
  const config = parseConfig({
    CODEXPI_DATA_DIR: path.join(f.dir, "data"),
    DATABASE_URL: f.url,
    CODEX_HOME: home.dir,
    CODEXPI_AGENT_ENV: "FAKE_OPENAI_API_KEY",
    CODEXPI_JAIL: process.env.CODEXPI_JAIL ?? "bwrap",
    LOG_LEVEL: "silent",
  });
  const db = openDatabase(f.target);
  const warm = warmSpawner(config, silentLogger, { ...process.env, ...home.env });
  const engine = new Engine({ config, db, spawner: warm });
  try {
    fs.mkdirSync(path.join(f.dir, "demo"));
    const project = await addProject(db, systemClock, { name: "demo", path: path.join(f.dir, "demo") });
    await updateGlobalPolicy(db, systemClock, policy(4), "bench");
    const latencies: number[] = [];
    for (let i = 0; i < dispatches + 2; i++) {
      await new Promise((r) => setTimeout(r, 700)); // let the next standby finish loading
      const { item } = await startConversation(db, systemClock, project, `bench ${i}`, "bench");
      const committed = Date.now();
      await engine.dispatch();
      const done = await waitForItem(db, item.id, 60_000, 20);
      if (done.status !== "done" || !done.codex_started_at)
        throw new Error(`item ${i} ended ${done.status}: ${done.error}`);
      if (i >= 2) latencies.push(done.codex_started_at - committed); // 2 warm-ups
    }
    return latencies;
  } finally {
    await warm.close();
    await db.destroy();
    await fake.close();
    fs.rmSync(f.dir, { recursive: true, force: true });
    fs.rmSync(home.dir, { recursive: true, force: true });
  }
}

async function tickWithLiveItems(dialect: "sqlite" | "postgres"): Promise<number[]> {
  const f = await fresh(dialect);
  const db = openDatabase(f.target);
  const sleepers: ChildProcess[] = [];
  try {
    const projects: Project[] = [];
    for (let p = 0; p < 5; p++) {
      fs.mkdirSync(path.join(f.dir, `p${p}`));
      projects.push(await addProject(db, systemClock, { name: `p${p}`, path: path.join(f.dir, `p${p}`) }));
    }
    await updateGlobalPolicy(db, systemClock, policy(50), "bench");
    const now = Date.now();
    await insertChunks(
      db,
      "conversations",
      Array.from({ length: 200 }, (_, c) => ({
        id: `lc${c}`,
        project_id: projects[c % 5]?.id,
        title: "live",
        user_id: "U1",
        status: c < 50 ? "running" : "queued",
        created_at: now,
        updated_at: now,
      })),
    );
    let seq = 0;
    const running = Array.from({ length: 50 }, (_, r) => {
      const s = spawn("sleep", ["600"], { detached: true, stdio: "ignore" });
      s.unref();
      sleepers.push(s);
      return {
        ...queuedRow(`r${r}`, ++seq, `lc${r}`, now),
        status: "running",
        started_at: now,
        attempt: 1,
        worker_pid: s.pid,
        worker_start_time: processStartTime(s.pid as number),
      };
    });
    const queued = Array.from({ length: 1000 }, (_, q) => queuedRow(`q${q}`, ++seq, `lc${q % 200}`, now));
    await insertChunks(db, "prompt_queue", [...running, ...queued]);
    const config = parseConfig({ CODEXPI_DATA_DIR: f.dir, DATABASE_URL: f.url, LOG_LEVEL: "silent" });
    const engine = new Engine({
      config,
      db,
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
      if (r.state !== "processed" || r.started?.length || r.reaped?.length)
        throw new Error(`unexpected tick: ${JSON.stringify(r)}`);
      if (i >= 10) durations.push(dt);
    }
    return durations;
  } finally {
    for (const s of sleepers) s.kill("SIGKILL");
    await db.destroy();
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
}

async function claimsPerSecond(
  dialect: "sqlite" | "postgres",
): Promise<{ total: number; perHost: number[]; busy: number }> {
  const f = await fresh(dialect);
  const db = openDatabase(f.target);
  try {
    await updateGlobalPolicy(db, systemClock, policy(4), "bench");
    const now = Date.now();
    // Enough queued items that no host runs dry: each in a conversation of its own.
    const perHost = 4_000;
    let seq = 0;
    for (let h = 0; h < HOSTS; h++) {
      fs.mkdirSync(path.join(f.dir, `h${h}`));
      const project = await addProject(db, systemClock, { name: `h${h}`, path: path.join(f.dir, `h${h}`) });
      await db
        .updateTable("projects")
        .set({ host: `host${h}` })
        .where("id", "=", project.id)
        .execute();
      await insertChunks(
        db,
        "conversations",
        Array.from({ length: perHost }, (_, c) => ({
          id: `h${h}c${c}`,
          project_id: project.id,
          title: "claims",
          user_id: "U1",
          status: "queued",
          created_at: now,
          updated_at: now,
        })),
      );
      await insertChunks(
        db,
        "prompt_queue",
        Array.from({ length: perHost }, (_, c) => queuedRow(`h${h}q${c}`, ++seq, `h${h}c${c}`, now)),
      );
    }
    const claimers = Array.from({ length: HOSTS }, (_, h) => {
      const child = spawn(process.execPath, [self, "--claimer", f.url, `host${h}`, String(claimSeconds)], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      const ready = new Promise<void>((resolve) =>
        child.stdout.on("data", (d) => {
          out += String(d);
          if (out.includes("ready")) resolve();
        }),
      );
      const count = new Promise<{ claims: number; busy: number }>((resolve, reject) =>
        child.once("exit", (code) =>
          code === 0
            ? resolve({
                claims: Number(/claims (\d+)/.exec(out)?.[1]),
                busy: Number(/busy (\d+)/.exec(out)?.[1]),
              })
            : reject(new Error(`claimer ${h} exited ${code}`)),
        ),
      );
      return { child, ready, count };
    });
    await Promise.all(claimers.map((c) => c.ready)); // every claimer connected: go together
    for (const c of claimers) c.child.stdin.end("go\n");
    const counts = await Promise.all(claimers.map((c) => c.count));
    return {
      total: counts.reduce((a, b) => a + b.claims, 0) / claimSeconds,
      perHost: counts.map((c) => c.claims / claimSeconds),
      busy: counts.reduce((a, b) => a + b.busy, 0),
    };
  } finally {
    await db.destroy();
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
}

try {
  const rows: string[][] = [];
  const results: Record<
    string,
    { dispatch: number[]; tick: number[]; claims: { total: number; perHost: number[]; busy: number } }
  > = {};
  for (const dialect of ["sqlite", "postgres"] as const) {
    process.stderr.write(`[bench-dialects] ${dialect}: enqueue → Codex started\n`);
    const dispatch = await enqueueToCodex(dialect);
    process.stderr.write(`[bench-dialects] ${dialect}: tick with 1,000 live items\n`);
    const tick = await tickWithLiveItems(dialect);
    process.stderr.write(`[bench-dialects] ${dialect}: claims with ${HOSTS} hosts\n`);
    const claims = await claimsPerSecond(dialect);
    results[dialect] = { dispatch, tick, claims };
  }
  const s = results.sqlite as (typeof results)[string];
  const p = results.postgres as (typeof results)[string];
  rows.push(
    ["", "SQLite", "PostgreSQL"],
    [
      `enqueue → Codex started, warm (median / p95, ${dispatches})`,
      `${fmt(median(s.dispatch))} / ${fmt(percentile(s.dispatch, 95))}`,
      `${fmt(median(p.dispatch))} / ${fmt(percentile(p.dispatch, 95))}`,
    ],
    [
      `tick, 1,000 queued + 50 running (median / p95, ${ticks})`,
      `${fmt(median(s.tick))} / ${fmt(percentile(s.tick, 95))}`,
      `${fmt(median(p.tick))} / ${fmt(percentile(p.tick, 95))}`,
    ],
    [
      `claims per second, ${HOSTS} host processes (${claimSeconds} s)`,
      `${s.claims.total.toFixed(0)} (${s.claims.perHost.map((c) => c.toFixed(0)).join("/")}; busy ${s.claims.busy})`,
      `${p.claims.total.toFixed(0)} (${p.claims.perHost.map((c) => c.toFixed(0)).join("/")}; busy ${p.claims.busy})`,
    ],
  );
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  process.stdout.write(
    [
      `engine on both dialects (real Codex 0.171.0 and fake model for dispatch; jail ${process.env.CODEXPI_JAIL ?? "bwrap"}; PostgreSQL: embedded, fsync off)`,
      ...rows.map((r) => `  ${r.map((c, i) => c.padEnd(widths[i] as number)).join("  ")}`),
      `reproduce: npm run build && node dist/scripts/bench-dialects.js ${dispatches} ${ticks} ${claimSeconds}`,
      "",
    ].join("\n"),
  );
} finally {
  await (pgServer as PostgresServer | null)?.stop();
}
