import {
  Engine,
  HOST_NAME,
  StartupError,
  describeStorageError,
  openDatabase,
  processOwnerId,
  workerHostSeat,
} from "../engine/api/runtime.js";
import os from "node:os";
import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { layoutProblemsOf } from "./layoutCheck.js";
import { t } from "../i18n/index.js";
import { args, cliLocale, out, UsageError } from "./context.js";

/** How often a host heartbeats, reaps its lost workers and claims its projects' queued items. */
const POLL_MS = 1_000;

/**
 * `codexpi host [--name N]`: the worker side of a project placement. Registers N (default: this
 * machine's name), then until SIGTERM/SIGINT heartbeats with its load readings, reaps its own
 * lost workers and dispatches the queued items of the projects placed on it, under this
 * machine's load and memory policy. It never ticks (the coordinator does) and never talks to Slack.
 */
export async function run(argv: string[]): Promise<number> {
  const { values } = args(argv, { name: { type: "string" } }, 0);
  const name = values.name ?? process.env.CODEXPI_HOST_NAME ?? os.hostname().split(".")[0] ?? "";
  if (!HOST_NAME.test(name)) throw new UsageError(t(cliLocale(), "cli.error.host_name"));
  // Its workers inherit the name through the environment (workerEnv), so that a finishing
  // worker's own dispatch also claims only this host's items.
  const config = parseConfig({ ...process.env, CODEXPI_HOST_NAME: name });
  registerSecrets(configuredSecrets(config));
  const logger = createLogger(config.logLevel).child({ role: "host", host: name });
  // As for serve (which also migrates here): an agent able to write codexpi's data or code never runs.
  const problems = await layoutProblemsOf(config).catch((err: unknown) => {
    throw new StartupError(describeStorageError(config.database, err, config.locale), { cause: err });
  });
  if (problems.length) {
    for (const p of problems)
      process.stderr.write(`${t(config.locale, "cli.host.refused", { problem: p })}\n`);
    return 1;
  }
  const db = openDatabase(config.database);
  const seat = workerHostSeat(new Engine({ config, db, logger }), name, processOwnerId());
  if (!(await seat.register())) {
    process.stderr.write(`${t(config.locale, "cli.host.taken", { name })}\n`);
    await db.destroy();
    return 1;
  }
  out(t(config.locale, "cli.host.started", { name, dataDir: config.dataDir }));

  let stopping = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  let code = 0;
  while (!stopping) {
    try {
      if (!(await seat.heartbeat())) {
        process.stderr.write(`${t(config.locale, "cli.host.lost_name", { name })}\n`);
        code = 1;
        break;
      }
      const result = await seat.turn();
      if (result.started.length) logger.info({ started: result.started.map((s) => s.id) }, "dispatched");
    } catch (err) {
      // A database hiccup must not end the host: its workers and heartbeat resume on the next turn.
      logger.error({ err }, "host loop failed");
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
      // Not unref'd: this timer is what keeps the host alive between turns.
      setTimeout(resolve, POLL_MS);
    });
  }
  // Workers are detached: they finish their turns and write their outcomes without the host.
  await seat.release().catch((err) => logger.warn({ err }, "could not release the host name"));
  await db.destroy();
  out(t(config.locale, "cli.host.stopped", { name }));
  return code;
}
