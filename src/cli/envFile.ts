import fs from "node:fs";
import path from "node:path";
import util from "node:util";
import { ConfigError } from "../config.js";
import { parseLocale, t } from "../i18n/index.js";

/** The file a command reads its settings from when CODEXPI_ENV_FILE names none: `.env` where it runs. */
const DEFAULT_ENV_FILE = ".env";

/**
 * Reads the operator's environment file into `env` (the quick start keeps the Slack tokens there):
 * CODEXPI_ENV_FILE names it (`none`: no file), else `.env` in `cwd` when it exists. A variable
 * already set in the environment wins over the file, as with `node --env-file`. Returns the file
 * read, or null.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv, cwd: string): string | null {
  const asked = env.CODEXPI_ENV_FILE;
  if (asked === "none") return null;
  const file = path.resolve(cwd, asked || DEFAULT_ENV_FILE);
  // Only a file named explicitly must exist: without one, no .env is the ordinary case.
  if (!asked && !fs.existsSync(file)) return null;
  let values: Record<string, string | undefined>;
  try {
    // util.parseEnv (Node 20.12+) reads the same syntax as `node --env-file`.
    if (typeof util.parseEnv !== "function") throw new Error("Node 20.12 or later is needed to read it");
    values = util.parseEnv(fs.readFileSync(file, "utf8")) as Record<string, string | undefined>;
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(t(parseLocale(env.CODEXPI_LOCALE), "cli.env_file.unreadable", { file, reason }));
  }
  for (const [name, value] of Object.entries(values)) if (env[name] === undefined) env[name] = value;
  return file;
}
