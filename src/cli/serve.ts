import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { args } from "./context.js";
import { layoutProblemsOf } from "./layoutCheck.js";

/**
 * `codexpi serve` (`npm start`): the Slack app, notifier, dispatcher, ticker and health endpoint,
 * until SIGINT/SIGTERM. Workers are detached: stopping serve never stops a running agent.
 */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const config = parseConfig();
  registerSecrets(configuredSecrets(config));
  const logger = createLogger(config.logLevel);
  // Before anything starts: an agent able to write codexpi's data or code must never run.
  const problems = await layoutProblemsOf(config);
  if (problems.length) {
    for (const p of problems) process.stderr.write(`codexpi serve refused: ${p}\n`);
    return 1;
  }
  const { startBot } = await import("../bot/server.js");
  const bot = await startBot(config, logger);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  logger.info("shutting down (running agents keep working)");
  await bot.stop();
  return 0;
}
