import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { POSTGRES_FILES, POSTGRES_ONLY_FILES } from "./test/support/postgresFiles.js";
import { postgresUnavailable } from "./test/support/postgresServer.js";
import { LATENCY_APART_FILES, LATENCY_FILES, POSTGRES_NOTIFY_FILES } from "./test/support/latencyFiles.js";
import { LatencySequencer } from "./test/support/latencySequencer.js";

// Tests choose every variable the processes they start see: an operator's .env in the checkout
// (the quick start puts real Slack tokens there) must never reach them.
process.env.CODEXPI_ENV_FILE ??= "none";
// Every `serve` a test starts binds its metrics listener to a free port, never the default 9464
// (files run side by side); the tests of that default set it explicitly.
process.env.CODEXPI_METRICS_PORT ??= "0";

/**
 * How many test files run at once: eight by default. The suite mostly waits (real processes,
 * ticks, loopback servers): four files at once took 745 s on this idle 2-core machine. Measured
 * again with the suite of issue 17 (npx vitest run, 2 cores): 6 at once 371 s, 8 at once 316 s,
 * 10 at once 309 s; the whole run's CPU (user + sys) fell too, from 477 to 441 s, as waiting
 * processes (pollers, servers, sleeping tests) wait less long. 8 keeps a margin for the files
 * that bound a latency.
 * On a machine loaded by other work, CODEXPI_TEST_WORKERS=2 keeps the 60 s end-to-end tests
 * inside their time (1 to debug one file's output in order).
 */
function testWorkers(): number {
  const asked = Number(process.env.CODEXPI_TEST_WORKERS);
  return Number.isInteger(asked) && asked > 0 ? asked : 8;
}

/**
 * The files that bound a latency (an ack under 1 s, a wake-up under a fraction of a poll) run
 * beside the others, at a higher CPU priority: their workers, and every process they start, run
 * at nice -5 (test/support/filePriority.ts chooses it per file; it needs root, as in CI), so that
 * what a latency file times is the code, not the load of the files around it.
 * test/support/latencySequencer.ts deals the latency files in among the others, past the start-up
 * burst and before the tail.
 * One project per dialect and group: vitest keeps a worker (and the app's modules it loaded) only
 * while the next file in the queue is of the same project; a project per kind of file, mixed in
 * one queue, restarted a worker for two files in three.
 * Except PostgreSQL's NOTIFY files (POSTGRES_NOTIFY_FILES): they time a wake-up through the one
 * server every postgres file shares, which is busy while the others run; beside them they failed on
 * a loaded machine. They run in a group of their own after the rest, five at a time.
 * CODEXPI_TEST_LATENCY_APART=all runs every latency file that way, =none none; the files of
 * LATENCY_APART_FILES (test/support/latencyFiles.ts) always run that way.
 */
const APART = process.env.CODEXPI_TEST_LATENCY_APART ?? "postgres";
type Group = { groupOrder: number; maxWorkers: number; latencyNice: string };
const BESIDE: Group = { groupOrder: 0, maxWorkers: testWorkers(), latencyNice: "-5" };
const AFTER: Group = { groupOrder: 1, maxWorkers: 5, latencyNice: "0" };

function sqliteProjects(): TestProjectInlineConfiguration[] {
  const sqlite = (name: string, group: Group, include: string[], exclude: string[]) => ({
    extends: true as const,
    test: {
      name,
      include,
      exclude: [...POSTGRES_ONLY_FILES, ...exclude, "**/node_modules/**"],
      env: { CODEXPI_TEST_DB: "sqlite", CODEXPI_TEST_LATENCY_NICE: group.latencyNice },
      maxWorkers: group.maxWorkers,
      sequence: { groupOrder: group.groupOrder },
      // Fails the run at once, naming the package, when git (or bubblewrap in CI) is missing.
      globalSetup: ["test/support/toolsGlobalSetup.ts", "test/support/sqliteGlobalSetup.ts"],
      setupFiles: ["test/support/filePriority.ts", "test/support/fileIsolation.ts"],
    },
  });
  const apart =
    APART === "all" ? [...new Set([...LATENCY_FILES, ...LATENCY_APART_FILES])] : LATENCY_APART_FILES;
  return [sqlite("sqlite", BESIDE, ["test/**/*.test.ts"], apart), sqlite("sqlite-apart", AFTER, apart, [])];
}

function postgresProjects(): TestProjectInlineConfiguration[] {
  const reason = postgresUnavailable();
  if (reason) {
    // CI must not pass without the PostgreSQL run; a developer's machine may lack the user.
    if (process.env.CODEXPI_REQUIRE_PG === "1") throw new Error(`PostgreSQL tests cannot run: ${reason}`);
    process.stderr.write(`PostgreSQL tests skipped: ${reason}\n`);
    return [];
  }
  // The list (test/support/postgresFiles.ts says which files and why the others are not
  // there); CODEXPI_PG_FILES=all takes every test file, to see what fails on PostgreSQL:
  // narrow it with file filters (`… --project postgres test/bot`).
  const files = process.env.CODEXPI_PG_FILES === "all" ? ["test/**/*.test.ts"] : POSTGRES_FILES;
  const postgres = (name: string, group: Group, include: string[], exclude: string[]) => ({
    extends: true as const,
    test: {
      name,
      include,
      exclude: [...exclude, "**/node_modules/**"],
      env: { CODEXPI_TEST_DB: "postgres", CODEXPI_TEST_LATENCY_NICE: group.latencyNice },
      maxWorkers: group.maxWorkers,
      sequence: { groupOrder: group.groupOrder },
      globalSetup: ["test/support/toolsGlobalSetup.ts", "test/support/postgresGlobalSetup.ts"],
      setupFiles: [
        "test/support/filePriority.ts",
        "test/support/fileIsolation.ts",
        "test/support/postgresSetupFile.ts",
      ],
    },
  });
  if (APART === "none") return [postgres("postgres", BESIDE, files, [])];
  const apart = APART === "all" ? LATENCY_FILES : [...POSTGRES_NOTIFY_FILES, ...LATENCY_APART_FILES];
  const latency = files === POSTGRES_FILES ? apart.filter((f) => files.includes(f)) : apart;
  return [postgres("postgres", BESIDE, files, latency), postgres("postgres-apart", AFTER, latency, [])];
}

export default defineConfig({
  test: {
    // Files share their worker's modules: each file's import of the app cost about 1.5 s of CPU
    // (a third of the suite's time); test/support/fileIsolation.ts puts back what a file could
    // leave behind (environment, registered secrets).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: testWorkers(),
    sequence: { sequencer: LatencySequencer },
    projects: [...sqliteProjects(), ...postgresProjects()],
  },
});
