import fs from "node:fs";
import path from "node:path";
import { processSpawner } from "../../src/engine/dispatch/spawner.js";
import { warmSpawner } from "../../src/engine/dispatch/warmSpawner.js";
import { silentLogger } from "../../src/logger.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { processStartTime, killGroup } from "../../src/engine/system/processes.js";
import { systemClock } from "../../src/engine/clock.js";
import type { Database } from "../../src/engine/database.js";
import { makeCodexHome } from "./codexHome.js";
import { startFakeModel, type FakeModelOptions } from "./fakeModel.js";
import { testConfig, testEngine, tempDir } from "./engine.js";
import { testDatabase } from "./testDatabase.js";
import { removeTree } from "./removeTree.js";

/**
 * An engine that spawns real `codexpi worker` processes (from dist/) running the real Codex
 * binary against a fake model on 127.0.0.1. Everything it started is killed by close().
 */
export async function codexEngine(
  opts: {
    env?: Record<string, string>;
    maxConcurrent?: number;
    warm?: boolean;
    authFile?: boolean;
    /** How the fake model answers a request when no step is queued. */
    fakeModel?: FakeModelOptions;
  } = {},
) {
  const fake = await startFakeModel(opts.fakeModel);
  const home = await makeCodexHome(fake.url, { authFile: opts.authFile });
  const dir = tempDir();
  const database = await testDatabase(dir);
  const env = {
    CODEX_HOME: home.dir,
    CODEXPI_TURN_TIMEOUT: "60",
    CODEXPI_IDLE_TIMEOUT: "60",
    // `CODEXPI_JAIL=off npx vitest …` runs the attack tests without the jail, to watch them fail.
    ...(process.env.CODEXPI_JAIL ? { CODEXPI_JAIL: process.env.CODEXPI_JAIL } : {}),
    ...database.env,
    ...opts.env,
  };
  const config = testConfig(dir, env);
  const baseEnv = { ...process.env, ...home.env, ...env, NO_PROXY: "127.0.0.1,localhost" };
  const warm = opts.warm ? warmSpawner(config, silentLogger, baseEnv) : null;
  const t = await testEngine({
    config,
    database,
    clock: systemClock,
    spawner: warm ?? processSpawner(config, baseEnv),
  });
  // The test machine is busy (two cores, parallel tests): never pause on load here.
  await updateGlobalPolicy(
    t.db,
    t.clock,
    {
      max_concurrent: opts.maxConcurrent ?? 4,
      load_pause_percent: 1000,
      memory_pause_percent: 100,
      background_start_hour: 0,
      background_end_hour: 0,
    },
    "test",
  );
  return {
    ...t,
    fake,
    home,
    baseEnv,
    warm,
    async close() {
      await warm?.close();
      await killRecorded(t.db);
      await fake.close();
      await t.close();
      fs.rmSync(home.dir, { recursive: true, force: true });
      await removeTree(dir);
    },
  };
}

/** Kills every worker and Codex group a test's database knows of (afterEach hygiene). */
export async function killRecorded(db: Database): Promise<void> {
  const rows = await db
    .selectFrom("prompt_queue")
    .select(["worker_pid", "worker_start_time", "codex_pid", "codex_start_time"])
    .execute()
    .catch(() => []);
  for (const r of rows) {
    for (const [pid, start] of [
      [r.worker_pid, r.worker_start_time],
      [r.codex_pid, r.codex_start_time],
    ] as const) {
      if (pid && start && processStartTime(pid) === start) killGroup(pid, "SIGKILL");
    }
  }
}

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function until<T>(
  check: () => Promise<T | undefined | false | null>,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits for a queue item to leave queued/running and returns it. */
export function finished(db: Database, queueId: string, timeoutMs = 45_000) {
  return until(
    async () => {
      const row = await db
        .selectFrom("prompt_queue")
        .selectAll()
        .where("id", "=", queueId)
        .executeTakeFirst();
      return row && !["queued", "running"].includes(row.status) ? row : undefined;
    },
    timeoutMs,
    `queue item ${queueId} to finish`,
  );
}

/** A directory outside every workspace, to test the sandbox's walls. */
export function outsideDir(): string {
  const d = tempDir("codexpi-outside-");
  return path.resolve(d);
}
