import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { POSTGRES_FILES, POSTGRES_ONLY_FILES } from "./test/support/postgresFiles.js";
import { postgresUnavailable } from "./test/support/postgresServer.js";
import { LATENCY_FILES } from "./test/support/latencyFiles.js";

// Tests choose every variable the processes they start see: an operator's .env in the checkout
// (the quick start puts real Slack tokens there) must never reach them.
process.env.CODEXPI_ENV_FILE ??= "none";

/**
 * How many test files run at once, outside the latency-bounded ones: four by default. Since files
 * share their worker's modules (isolate: false) and workers start from the bundle, the suite no
 * longer waits on module loading: on this idle 2-core machine two workers left one core idle
 * (974 s), four took 764 s and passed. On a machine loaded by other work, CODEXPI_TEST_WORKERS=2
 * keeps the 60 s end-to-end tests inside their time (1 to debug one file's output in order).
 */
function testWorkers(): number {
  const asked = Number(process.env.CODEXPI_TEST_WORKERS);
  return Number.isInteger(asked) && asked > 0 ? asked : 4;
}

/**
 * The files that bound a latency (an ack under 1 s, a wake-up under a fraction of a poll) run in
 * a group of their own, after the others, two at a time: what they time is then the code, not the
 * other files' load. Vitest runs each group's projects together, and the groups one after another.
 */
const LATENCY = { groupOrder: 1, maxWorkers: 2 };
const BULK = { groupOrder: 0, maxWorkers: testWorkers() };

function sqliteProjects(): TestProjectInlineConfiguration[] {
  const sqlite = (name: string, group: typeof LATENCY, include: string[], exclude: string[]) => ({
    extends: true as const,
    test: {
      name,
      include,
      exclude: [...POSTGRES_ONLY_FILES, ...exclude, "**/node_modules/**"],
      env: { CODEXPI_TEST_DB: "sqlite" },
      maxWorkers: group.maxWorkers,
      sequence: { groupOrder: group.groupOrder },
      // Fails the run at once, naming the package, when git (or bubblewrap in CI) is missing.
      globalSetup: ["test/support/toolsGlobalSetup.ts", "test/support/sqliteGlobalSetup.ts"],
      setupFiles: ["test/support/fileIsolation.ts"],
    },
  });
  return [
    sqlite("sqlite", BULK, ["test/**/*.test.ts"], LATENCY_FILES),
    sqlite("sqlite-latency", LATENCY, LATENCY_FILES, []),
  ];
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
  const postgres = (name: string, group: typeof LATENCY, include: string[], exclude: string[]) => ({
    extends: true as const,
    test: {
      name,
      include,
      exclude: [...exclude, "**/node_modules/**"],
      env: { CODEXPI_TEST_DB: "postgres" },
      maxWorkers: group.maxWorkers,
      sequence: { groupOrder: group.groupOrder },
      globalSetup: ["test/support/toolsGlobalSetup.ts", "test/support/postgresGlobalSetup.ts"],
      setupFiles: ["test/support/fileIsolation.ts", "test/support/postgresSetupFile.ts"],
    },
  });
  const latency = files === POSTGRES_FILES ? LATENCY_FILES.filter((f) => files.includes(f)) : LATENCY_FILES;
  return [
    postgres("postgres", BULK, files, LATENCY_FILES),
    postgres("postgres-latency", LATENCY, latency, []),
  ];
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
    projects: [...sqliteProjects(), ...postgresProjects()],
  },
});
