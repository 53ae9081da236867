import {
  warmTurnServices,
  type Assignment,
  Engine,
  type WorkerSpawner,
  closeWakeups,
  logsDir,
  openDatabase,
  processSpawner,
  runWorker,
} from "../engine/api/runtime.js";
import path from "node:path";
import { pino } from "pino";
import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { t } from "../i18n/index.js";
import { args, UsageError } from "./context.js";

const MAX_ITEMS_PER_PROCESS = 50;

/**
 * `codexpi worker <queue-id> --attempt <n>` (internal), or `codexpi worker --standby`: loaded and
 * connected ahead of time, it waits for its assignment on the IPC channel, then drops the channel
 * so that it no longer depends on the bot. A worker never migrates; it runs what it was given.
 */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = args(
    argv,
    { attempt: { type: "string" }, standby: { type: "boolean" } },
    argv.includes("--standby") ? 0 : 1,
  );
  const config = parseConfig();
  // Codex output and failure texts may end up in this worker's log: the secrets it holds (the
  // model credential; never Slack's, which workers do not get) are redacted too.
  registerSecrets(configuredSecrets(config));
  const db = openDatabase(config.database);
  try {
    let assignment: Assignment | null;
    if (values.standby) {
      await warmTurnServices(config, pino({ level: "silent" }));
      assignment = await waitForAssignment();
    } else {
      const attempt = Number(values.attempt ?? "1");
      if (!Number.isInteger(attempt) || attempt < 1)
        throw new UsageError(t(config.locale, "cli.error.attempt"));
      assignment = { queueId: positionals[0] as string, attempt };
    }
    if (!assignment) return 0; // the bot went away before giving us work
    // A finishing worker dispatches what may start next; the first item it claims it runs itself,
    // already loaded, instead of paying for a new process. Bounded, so memory never creeps.
    let result: Awaited<ReturnType<typeof runWorker>> = "skipped";
    const next: { value: Assignment | null } = { value: assignment };
    for (let runs = 0; next.value && runs < MAX_ITEMS_PER_PROCESS; runs++) {
      const current: Assignment = next.value;
      next.value = null;
      const logger = createLogger(
        config.logLevel,
        pino.destination({
          dest: path.join(logsDir(config), `worker-${current.queueId}.log`),
          mkdir: true,
          sync: true,
        }),
      ).child({ role: "worker" });
      const cold = processSpawner(config);
      const spawner: WorkerSpawner = async (queueId, attempt) => {
        if (next.value || runs + 1 >= MAX_ITEMS_PER_PROCESS) return cold(queueId, attempt);
        next.value = { queueId, attempt };
        return { pid: process.pid };
      };
      result = await runWorker(new Engine({ config, db, logger, spawner }), current.queueId, current.attempt);
      const chained = next.value as Assignment | null; // set by the spawner during runWorker
      logger.info({ result, next: chained?.queueId ?? null }, "worker finished");
    }
    return result === "failed" ? 1 : 0;
  } finally {
    await closeWakeups(db); // its LISTEN connection (PostgreSQL), if a wait opened one
    await db.destroy();
  }
}

function waitForAssignment(): Promise<Assignment | null> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve(null);
    process.once("message", (m: unknown) => {
      const a = m as Partial<Assignment>;
      process.disconnect();
      resolve(
        typeof a?.queueId === "string" && Number.isInteger(a.attempt)
          ? { queueId: a.queueId, attempt: a.attempt as number }
          : null,
      );
    });
    process.once("disconnect", () => resolve(null));
    process.send({ type: "ready" });
  });
}
