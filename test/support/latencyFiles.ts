/**
 * Test files that assert a latency: an ack under 1 s (killAfterAck, foreignLock), a wake-up under a
 * fraction of the poll it replaces (wakeups, notifierWakeups, postgresStop, approvals), a steer or
 * a takeover within its bound (steer, takeover, multiServe), two agents' turns overlapping by
 * most of their 3 s (directWorkspace's positive control, lanes), a shutdown under 2 s, watchdogs and
 * graces of a few hundred ms (appServerStandIn, appServerRunner: flaky at four files at once on a
 * loaded 2-core machine, while they pass alone). vitest.config.ts runs them beside the rest at a
 * higher CPU priority (nice -5, test/support/filePriority.ts): what they time is then
 * the code, not the load of the files around them. On PostgreSQL those of POSTGRES_NOTIFY_FILES
 * run after the rest, five at a time (CODEXPI_TEST_LATENCY_APART=all: every latency file of both
 * dialects; =none: none).
 */
export const LATENCY_FILES = [
  "test/bot/approvals.test.ts",
  "test/bot/intake/foreignLock.test.ts",
  "test/bot/intake/killAfterAck.test.ts",
  "test/bot/notifierWakeups.test.ts",
  "test/bot/shutdown.test.ts",
  "test/engine/appServerRunner.test.ts",
  "test/engine/appServerStandIn.test.ts",
  "test/engine/approvals/approvals.test.ts",
  "test/engine/wakeups.test.ts",
  "test/integration/directWorkspace.test.ts",
  "test/integration/lanes.test.ts",
  "test/integration/multiServe/adoption.test.ts",
  "test/integration/multiServe/coordinator.test.ts",
  "test/integration/multiServe/leaseExpiry.test.ts",
  "test/integration/postgresStop.test.ts",
  "test/integration/steer.test.ts",
  "test/integration/takeover.test.ts",
];

/**
 * Latency files that failed their bound beside the others even at the higher priority (a restarted
 * serve's listener within 5 s, while six files ran; it passes alone in 4 s): they run after the
 * rest, five at a time, whatever CODEXPI_TEST_LATENCY_APART says.
 */
export const LATENCY_APART_FILES = ["test/integration/takeover.test.ts"];

/**
 * The PostgreSQL latency files that time a NOTIFY wake-up through the server every postgres file
 * shares (a wake-up within a fraction of the poll it replaces): they run after the rest, apart.
 * The others (multiServe's takeover within the lease, an adoption) run beside the rest at the
 * latency files' priority, as on SQLite: apart they were the run's last 25 s, most of it waiting.
 */
export const POSTGRES_NOTIFY_FILES = [
  "test/bot/notifierWakeups.test.ts",
  "test/engine/approvals/approvals.test.ts",
  "test/engine/wakeups.test.ts",
  "test/integration/postgresStop.test.ts",
];
