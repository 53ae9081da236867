import { parseConfig } from "../config.js";
import { openDatabase } from "../engine/database.js";
import { Engine } from "../engine/engine.js";
import { runWorker } from "../engine/agents/worker.js";
import { createLogger } from "../logger.js";
import { args } from "./context.js";

/** `codexpi worker <queue-id> --attempt <n>` (internal): never migrates; it runs what it was given. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, { attempt: { type: "string" } }, 1);
  const attempt = Number(values.attempt ?? "1");
  const config = parseConfig();
  const logger = createLogger(config.logLevel, undefined).child({ role: "worker" });
  const db = openDatabase(config.databasePath);
  try {
    const result = await runWorker(new Engine({ config, db, logger }), positionals[0] as string, attempt);
    logger.info({ result }, "worker finished");
    return result === "failed" ? 1 : 0;
  } finally {
    await db.destroy();
  }
}
