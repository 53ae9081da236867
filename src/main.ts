#!/usr/bin/env node
// The CLI entry. Each command's module is imported lazily: `codexpi worker` is spawned for
// every prompt and must start fast, without loading Slack or anything it does not use.
import { ConfigError } from "./config.js";
import { isEngineError } from "./engine/errors.js";
import { engineErrorText, parseLocale, t } from "./i18n/index.js";
import { PUBLIC_COMMANDS, usage, wantsHelp } from "./cli/usage.js";
import { loadEnvFile } from "./cli/envFile.js";
import { closest } from "./suggest.js";

const COMMANDS: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  serve: () => import("./cli/serve.js"),
  migrate: () => import("./cli/migrate.js"),
  doctor: () => import("./cli/doctor.js"),
  project: () => import("./cli/project.js"),
  ask: () => import("./cli/ask.js"),
  decide: () => import("./cli/decide.js"),
  tick: () => import("./cli/tick.js"),
  answer: () => import("./cli/answer.js"),
  stop: () => import("./cli/stop.js"),
  worker: () => import("./cli/worker.js"),
  host: () => import("./cli/host.js"),
  credential: () => import("./cli/credential.js"),
  forge: () => import("./cli/forge.js"),
  usage: () => import("./cli/spend.js"),
  budget: () => import("./cli/budget.js"),
  schedule: () => import("./cli/schedule.js"),
  audit: () => import("./cli/audit.js"),
  setup: () => import("./cli/setup.js"),
  memory: () => import("./cli/memory.js"),
};

const command = process.argv[2];
// A worker's environment is the one its spawner chose (allow-listed): it never reads a file.
const envFileError = command === "worker" ? null : readEnvFile();
const locale = parseLocale(process.env.CODEXPI_LOCALE);

/** The operator's `.env` (or CODEXPI_ENV_FILE), read before anything reads the environment. */
function readEnvFile(): unknown {
  try {
    loadEnvFile(process.env, process.cwd());
    return null;
  } catch (err) {
    return err;
  }
}

async function main(): Promise<number> {
  if (envFileError) throw envFileError;
  const rest = process.argv.slice(3);
  const load = command ? COMMANDS[command] : undefined;
  const help = !command || ["-h", "--help", "help"].includes(command);
  if (!load) {
    // Help asked for is the command's output (stdout, exit 0); an unknown command is a mistake.
    // `codexpi help ask` is `codexpi ask --help`: npx keeps a bare `--help` for itself.
    if (help) process.stdout.write(usage(locale, command === "help" ? rest[0] : undefined));
    else process.stderr.write(`${unknownCommand(command as string)}\n${usage(locale)}`);
    return help ? 0 : 2;
  }
  if (wantsHelp(rest)) {
    process.stdout.write(usage(locale, command));
    return 0;
  }
  return (await load()).run(rest);
}

/** Where to look when a project is not found: what exists, and how to add one. */
const notFoundHint = (reason: string): string =>
  reason === "project_not_found" ? `. ${t(locale, "rights.cli_not_found_hint")}` : "";

/** "unknown command", with the public command it most likely meant. */
function unknownCommand(name: string): string {
  const guess = closest(name, PUBLIC_COMMANDS);
  const text = t(locale, "cli.usage.unknown", { name });
  return guess ? `${text}. ${t(locale, "cli.did_you_mean", { name: guess })}` : text;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Configuration and start-up errors name what to fix: their message is the whole story.
    if (err instanceof ConfigError || (err instanceof Error && err.name === "StartupError"))
      process.stderr.write(`${err.message}\n`);
    else if (isEngineError(err))
      process.stderr.write(`${engineErrorText(locale, err)}${notFoundHint(err.reason)}\n`);
    else if (err instanceof Error && err.name === "UsageError")
      process.stderr.write(`${err.message}\n${usage(locale, command)}`);
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = err instanceof Error && err.name === "UsageError" ? 2 : 1;
  },
);
