import type { Kysely } from "kysely";
import { parseConfig } from "../config.js";
import { migrate, openDatabase } from "../engine/database.js";
import { Engine } from "../engine/engine.js";
import { startTicker } from "../engine/ticker.js";
import { warmSpawner } from "../engine/agents/warmSpawner.js";
import { createLogger } from "../logger.js";
import { args } from "./context.js";

/**
 * `codexpi serve`: migrates, then runs the dispatcher and the ticker until SIGINT/SIGTERM.
 * Workers are detached: stopping serve never stops a running agent.
 */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const config = parseConfig();
  const logger = createLogger(config.logLevel);
  const db = openDatabase(config.databasePath);
  await migrate(db as unknown as Kysely<unknown>);
  const spawner = warmSpawner(config, logger);
  const engine = new Engine({ config, db, logger, spawner });
  const ticker = startTicker(engine, config.tick, logger);
  logger.info({ owner: engine.owner, tick: config.tick, database: config.databasePath }, "codexpi serving");
  await engine.tick().catch((err) => logger.error({ err }, "first tick failed"));

  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  logger.info("shutting down (running agents keep working)");
  await ticker.stop();
  spawner.close();
  await db.destroy();
  return 0;
}
