import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { postgresUnavailable } from "./test/support/postgresServer.js";

/**
 * Engine test files that pass on PostgreSQL: the postgres project runs them a second time there
 * (each test on a database of its own). Not (yet) here: the query-plan tests (SQLite's EXPLAIN
 * QUERY PLAN), agents/projects.test.ts (its "other process" is a raw better-sqlite3 connection),
 * and the files that test SQLite itself (migrations, database, slackAddressesMigration) or need no
 * database. `CODEXPI_PG_FILES=all` runs every engine test file on PostgreSQL (to see what fails).
 */
const POSTGRES_FILES = [
  "test/engine/postgres.test.ts",
  "test/engine/postgresLocks.test.ts",
  "test/engine/wakeups.test.ts",
  "test/bot/notifierWakeups.test.ts",
  "test/integration/postgresCli.test.ts",
  "test/engine/agents/channelReaders.test.ts",
  "test/integration/workerHosts.test.ts",
  "test/integration/multiServe.test.ts",
  "test/integration/postgresStop.test.ts",
  "test/engine/agents/dispatcher.test.ts",
  "test/engine/agents/failureLocale.test.ts",
  "test/engine/agents/hosts.test.ts",
  "test/engine/agents/layout.test.ts",
  "test/engine/agents/longText.test.ts",
  "test/engine/agents/machines.test.ts",
  "test/engine/agents/policies.test.ts",
  "test/engine/agents/reaper.test.ts",
  "test/engine/agents/recovery.test.ts",
  "test/engine/agents/sandboxPolicy.test.ts",
  "test/engine/agents/selfClones.test.ts",
  "test/engine/agents/stopOnce.test.ts",
  "test/engine/approvals/approvals.test.ts",
  "test/engine/coordination/decisionCancel.test.ts",
  "test/engine/coordination/decisions.test.ts",
  "test/engine/coordination/incidents.test.ts",
  "test/engine/coordination/lookups.test.ts",
  "test/engine/coordination/machines.test.ts",
  "test/engine/coordination/overview.test.ts",
  "test/engine/coordination/sharedSpecialists.test.ts",
  "test/engine/coordination/specialists.test.ts",
  "test/engine/leases.test.ts",
  "test/engine/orchestrations/clones.test.ts",
  "test/engine/orchestrations/flow.test.ts",
  "test/engine/orchestrations/guards.test.ts",
  "test/engine/orchestrations/recovery.test.ts",
  "test/engine/outbox.test.ts",
  "test/engine/read/queue.test.ts",
  "test/engine/runs/authorization.test.ts",
  "test/engine/runs/machine.test.ts",
  "test/engine/runs/pingPong.test.ts",
  "test/engine/runs/resume.test.ts",
  "test/engine/runs/review.test.ts",
  "test/engine/runs/selfRepair.test.ts",
  "test/bot/intake/sharedIntake.test.ts",
  "test/engine/agents/requestKey.test.ts",
];

function postgresProject(): TestProjectInlineConfiguration[] {
  const reason = postgresUnavailable();
  if (reason) {
    // CI must not pass without the PostgreSQL run; a developer's machine may lack the user.
    if (process.env.CODEXPI_REQUIRE_PG === "1") throw new Error(`PostgreSQL tests cannot run: ${reason}`);
    process.stderr.write(`PostgreSQL tests skipped: ${reason}\n`);
    return [];
  }
  return [
    {
      extends: true,
      test: {
        name: "postgres",
        include:
          process.env.CODEXPI_PG_FILES === "all"
            ? ["test/engine/**/*.test.ts", "test/integration/postgresCli.test.ts"]
            : POSTGRES_FILES,
        env: { CODEXPI_TEST_DB: "postgres" },
        globalSetup: ["test/support/postgresGlobalSetup.ts"],
        setupFiles: ["test/support/postgresSetupFile.ts"],
      },
    },
  ];
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn real Codex processes: two cores, so keep parallelism modest.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["test/**/*.test.ts"],
          exclude: [
            "test/engine/postgres.test.ts",
            "test/engine/postgresLocks.test.ts",
            "test/engine/wakeups.test.ts",
            "test/bot/notifierWakeups.test.ts",
            "test/integration/postgresCli.test.ts",
            "test/integration/multiServe.test.ts",
            "test/integration/postgresStop.test.ts",
            "**/node_modules/**",
          ],
          env: { CODEXPI_TEST_DB: "sqlite" },
        },
      },
      ...postgresProject(),
    ],
  },
});
