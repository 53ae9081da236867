import { parseConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import { args } from "./context.js";

/**
 * `codexpi serve` (`npm start`): the Slack app, notifier, dispatcher, ticker and health endpoint,
 * until SIGINT/SIGTERM. Workers are detached: stopping serve never stops a running agent.
 */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const config = parseConfig();
  registerSecrets(configuredSecrets(config));
  const logger = createLogger(config.logLevel);
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
