import os from "node:os";
import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { openDatabase } from "../engine/database.js";
import { layoutProblemsOf } from "./layoutCheck.js";
import { Engine } from "../engine/engine.js";
import { processOwnerId } from "../engine/leases.js";
import { HOST_NAME, heartbeatHost, readingsOf, registerHost, releaseHost } from "../engine/dispatch/hosts.js";
import { describeStorageError, StartupError } from "../engine/storage.js";
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
  const engine = new Engine({ config, db, logger });
  const owner = processOwnerId();
  if (!(await registerHost(db, engine.clock, name, owner, config.hostTtlMs, config.dataDir))) {
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
  let running = 0;
  let code = 0;
  while (!stopping) {
    try {
      if (!(await heartbeatHost(db, engine.clock, name, owner, readingsOf(engine.host, running)))) {
        process.stderr.write(`${t(config.locale, "cli.host.lost_name", { name })}\n`);
        code = 1;
        break;
      }
      const result = await engine.hostTurn();
      if (result.started.length) logger.info({ started: result.started.map((s) => s.id) }, "dispatched");
      running = await runningHere(engine);
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
  await releaseHost(db, name, owner).catch((err) => logger.warn({ err }, "could not release the host name"));
  await db.destroy();
  out(t(config.locale, "cli.host.stopped", { name }));
  return code;
}

/** How many items run on this host now (the heartbeat's reading). */
async function runningHere(engine: Engine): Promise<number> {
  const row = await engine.db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("q.status", "=", "running")
    .where("p.host", "=", engine.config.hostName)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
