import {
  createEngineApi,
  type Database,
  Engine,
  type EngineApi,
  logsDir,
  migrateIfBehind,
  openDatabase,
} from "../engine/api/runtime.js";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { pino } from "pino";
import { parseConfig, type Config } from "../config.js";
import { createLogger } from "../logger.js";
import { parseLocale, t, type Locale } from "../i18n/index.js";
import { argErrorText } from "./argErrors.js";
import { configuredSecrets, registerSecrets } from "../redaction.js";
import type { Kysely } from "kysely";

/** A usage mistake on the command line; main prints the usage with it. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parses a command's arguments strictly, turning parse errors into UsageError. */
export function args<T extends ParseArgsConfig["options"]>(argv: string[], options: T, positionals: number) {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    if (parsed.positionals.length !== positionals) {
      throw new UsageError(
        t(cliLocale(), "cli.error.arguments", { n: positionals, got: parsed.positionals.length }),
      );
    }
    return parsed;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(argErrorText(cliLocale(), err, options));
  }
}

/** Builds config, a migrated database and an engine for a one-off CLI command. */
export async function cliEngine(
  opts: { migrate?: boolean } = {},
): Promise<{ config: Config; db: Database; engine: Engine; api: EngineApi }> {
  const config = parseConfig();
  registerSecrets(configuredSecrets(config));
  // Logs go to a file: on a terminal, stderr carries the command's own messages (the
  // conversation id, how to follow it), which log lines would bury.
  const logger = createLogger(
    config.logLevel,
    pino.destination({ dest: path.join(logsDir(config), "cli.log"), mkdir: true, sync: true }),
  ).child({ role: "cli" });
  const db = openDatabase(config.database);
  if (opts.migrate !== false) await migrateIfBehind(db as unknown as Kysely<unknown>);
  const engine = new Engine({ config, db, logger });
  return { config, db, engine, api: createEngineApi(engine) };
}

/** Writes a line to stdout (the CLI's output, as opposed to logs). */
export const out = (line: string) => process.stdout.write(`${line}\n`);

/** The command line's language (`CODEXPI_LOCALE`), also before the configuration is read. */
export const cliLocale = (): Locale => parseLocale(process.env.CODEXPI_LOCALE);

/** Runs `fn` with the engine's API and the operator's language, then closes the database; exit 0. */
export async function withApi(
  fn: (api: Awaited<ReturnType<typeof cliEngine>>["api"], locale: Locale) => Promise<void>,
): Promise<number> {
  const { db, api, config } = await cliEngine();
  try {
    await fn(api, config.locale);
    return 0;
  } finally {
    await db.destroy();
  }
}
