#!/usr/bin/env node
// The CLI entry. Each command's module is imported lazily: `codexpi worker` is spawned for
// every prompt and must start fast, without loading Slack or anything it does not use.
import { ConfigError } from "./config.js";
import { isEngineError } from "./engine/errors.js";
import { engineErrorText, parseLocale, t } from "./i18n/index.js";
import { usage, wantsHelp } from "./cli/usage.js";

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
  schedule: () => import("./cli/schedule.js"),
  audit: () => import("./cli/audit.js"),
};

const locale = parseLocale(process.env.CODEXPI_LOCALE);
const command = process.argv[2];

async function main(): Promise<number> {
  const rest = process.argv.slice(3);
  const load = command ? COMMANDS[command] : undefined;
  const help = !command || ["-h", "--help", "help"].includes(command);
  if (!load) {
    // Help asked for is the command's output (stdout, exit 0); an unknown command is a mistake.
    // `codexpi help ask` is `codexpi ask --help`: npx keeps a bare `--help` for itself.
    if (help) process.stdout.write(usage(locale, command === "help" ? rest[0] : undefined));
    else process.stderr.write(`${t(locale, "cli.usage.unknown", { name: command })}\n${usage(locale)}`);
    return help ? 0 : 2;
  }
  if (wantsHelp(rest)) {
    process.stdout.write(usage(locale, command));
    return 0;
  }
  return (await load()).run(rest);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Configuration and start-up errors name what to fix: their message is the whole story.
    if (err instanceof ConfigError || (err instanceof Error && err.name === "StartupError"))
      process.stderr.write(`${err.message}\n`);
    else if (isEngineError(err)) process.stderr.write(`${engineErrorText(locale, err)}\n`);
    else if (err instanceof Error && err.name === "UsageError")
      process.stderr.write(`${err.message}\n${usage(locale, command)}`);
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = err instanceof Error && err.name === "UsageError" ? 2 : 1;
  },
);
