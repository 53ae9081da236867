import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig, type Config } from "../../src/config.js";
import { FAKE_KEY_ENV } from "./codexHome.js";
import { FakeClock } from "../../src/engine/clock.js";
import { openDatabase, openMigrated, type Database } from "../../src/engine/database.js";
import { Engine, type EngineOptions } from "../../src/engine/engine.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
import type { WorkerSpawner } from "../../src/engine/dispatch/dispatcher.js";
import { addProject, type NewProject } from "../../src/engine/projects/index.js";
import { testDatabase, type TestDatabase } from "./testDatabase.js";

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = "codexpi-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A config whose data dir and database live in `dir`. */
export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return parseConfig({
    // The language the tests built on this helper assert (written when French was the default):
    // set explicitly since the default became English (S-LANG-01); a test may override it.
    CODEXPI_LOCALE: "fr",
    CODEXPI_DATA_DIR: path.join(dir, "data"),
    LOG_LEVEL: "silent",
    CODEXPI_AGENT_ENV: FAKE_KEY_ENV,
    ...env,
  });
}

/** A spawner type that remembers its calls and can kill what it started. */
export type RecordingSpawner = WorkerSpawner & {
  calls: Array<{ queueId: string; attempt: number }>;
  killAll(): void;
};

/**
 * Records spawn requests and starts a stand-in process (`sleep`) per call, in its own group like a
 * real worker: alive for the reaper, safe to signal (never the test process itself).
 */
export function recordingSpawner(): RecordingSpawner {
  const calls: Array<{ queueId: string; attempt: number }> = [];
  const children: ChildProcess[] = [];
  const spawner = (async (queueId: string, attempt: number) => {
    calls.push({ queueId, attempt });
    const child = spawn("sleep", ["120"], { detached: true, stdio: "ignore" });
    child.unref();
    children.push(child);
    return { pid: child.pid! };
  }) as RecordingSpawner;
  spawner.calls = calls;
  spawner.killAll = () => {
    for (const c of children.splice(0)) c.kill("SIGKILL");
  };
  return spawner;
}

/**
 * A real database with the real migrations (an SQLite file, or a PostgreSQL database of its own
 * under CODEXPI_TEST_DB=postgres: see testDatabase.ts), an engine with a fake clock and fixed load.
 */
export async function testEngine(
  opts: Partial<EngineOptions> & { env?: Record<string, string>; database?: TestDatabase } = {},
) {
  const dir = tempDir();
  // A caller that builds its own config names the database in it and hands it over (closed here).
  const fresh = opts.database ?? (opts.config || opts.db ? null : await testDatabase(dir));
  const config = opts.config ?? testConfig(dir, { ...fresh?.env, ...opts.env });
  // A fresh PostgreSQL database is a copy of the template the global setup migrated.
  const db: Database =
    opts.db ??
    (fresh?.target.dialect === "postgres" ? openDatabase(fresh.target) : await openMigrated(config.database));
  // The data dir exists on both dialects, as under `serve` (on SQLite the database file is in it).
  fs.mkdirSync(config.dataDir, { recursive: true });
  const clock = (opts.clock as FakeClock | undefined) ?? new FakeClock();
  const spawner = recordingSpawner();
  const engine = new Engine({ spawner, host: fixedHostLoad(), ...opts, config, db, clock });
  const projectDir = path.join(dir, "project");
  fs.mkdirSync(projectDir, { recursive: true });
  // Direct, as every project was before lanes: a test that wants lanes asks for branch mode.
  const project = await addProject(db, clock, {
    name: "demo",
    path: projectDir,
    ownerId: "UOWNER",
    workspaceMode: "direct",
  });
  return {
    dir,
    config,
    db,
    clock,
    engine,
    spawner,
    project,
    async addProject(input: Partial<NewProject> & { name: string }) {
      const p = path.join(dir, input.name.replace(/\W/g, "_"));
      fs.mkdirSync(p, { recursive: true });
      return addProject(db, clock, { path: p, workspaceMode: "direct", ...input });
    },
    async close() {
      spawner.killAll();
      await db.destroy();
      await fresh?.drop();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
