import { StartupError, describeStorageError } from "../engine/api/runtime.js";
import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { args } from "./context.js";
import { t } from "../i18n/index.js";
import { layoutProblemsOf } from "./layoutCheck.js";

/** The whole shutdown's bound: every step has its own, this is the last word. */
const SHUTDOWN_DEADLINE_MS = 45_000;

/**
 * `codexpi serve` once Slack's settings are there or headless was asked for: the Slack app,
 * notifier, dispatcher, ticker and health endpoint, until SIGINT/SIGTERM. Workers are detached:
 * stopping serve never stops a running agent.
 */
export async function serve(argv: string[]): Promise<number> {
  const { values } = args(argv, { headless: { type: "boolean" } }, 0);
  const config = parseConfig();
  registerSecrets(configuredSecrets(config));
  const headless = values.headless === true || config.headless;
  const logger = createLogger(config.logLevel);
  // Before anything starts: an agent able to write codexpi's data or code must never run.
  const problems = await layoutProblemsOf(config).catch((err: unknown) => {
    throw new StartupError(describeStorageError(config.database, err, config.locale), { cause: err });
  });
  if (problems.length) {
    for (const p of problems)
      process.stderr.write(`${t(config.locale, "cli.serve.refused", { problem: p })}\n`);
    return 1;
  }
  const { startBot } = await import("../bot/server.js");
  const bot = await startBot(config, logger, {}, { headless }).catch((err: unknown) => {
    // Whatever the failed start left open must not keep the process alive after the message.
    setTimeout(() => process.exit(1), 1_000).unref();
    // Slack's own errors were already put in words by startSlackApp; anything else stays as is.
    throw err;
  });
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  logger.info({ signal }, "shutting down (running agents keep working)");
  // A second signal, or a shutdown that outlives its bound, ends the process all the same.
  const force = (why: string) => {
    logger.error(why);
    process.exit(1);
  };
  process.once("SIGINT", () => force("second signal: exiting now"));
  process.once("SIGTERM", () => force("second signal: exiting now"));
  setTimeout(
    () => force(`shutdown took over ${SHUTDOWN_DEADLINE_MS} ms: exiting now`),
    SHUTDOWN_DEADLINE_MS,
  ).unref();
  const clean = await bot.stop();
  if (!clean) logger.error("shutdown ended with errors (see above)");
  // Whatever a failed step left open (a server, a timer) must not keep the process alive.
  setTimeout(() => process.exit(clean ? 0 : 1), 500).unref();
  return clean ? 0 : 1;
}
