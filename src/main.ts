#!/usr/bin/env node
// The CLI entry. Each command's module is imported lazily: `codexpi worker` is spawned for
// every prompt and must start fast, without loading Slack or anything it does not use.
import { ConfigError } from "./config.js";
import { isEngineError } from "./engine/errors.js";
import { engineErrorText, parseLocale } from "./i18n/index.js";

const COMMANDS: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  serve: () => import("./cli/serve.js"),
  migrate: () => import("./cli/migrate.js"),
  doctor: () => import("./cli/doctor.js"),
  project: () => import("./cli/project.js"),
  ask: () => import("./cli/ask.js"),
  decide: () => import("./cli/decide.js"),
  tick: () => import("./cli/tick.js"),
  worker: () => import("./cli/worker.js"),
};

const USAGE = `usage: codexpi <command>
  serve                                   run the bot, dispatcher and ticker
  migrate                                 upgrade the database schema
  doctor                                  check configuration, database, Codex, git, sandbox, Slack
  project add <name> <path> [--owner U…] [--full-access] [--merge-confirmation] [--channel C…] [--role project|master|self]
  project list
  project remove <name>
  ask <project> <prompt> [--wait] [--conversation <id>]
  decide <decision-id> <option-id>[,…] | --text "…"   answer an agent's decision
  tick                                    run one tick now
  worker <queue-id> --attempt <n>         (internal) run one queued prompt
`;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const load = command ? COMMANDS[command] : undefined;
  if (!load) {
    process.stderr.write(
      command && !["-h", "--help", "help"].includes(command)
        ? `unknown command: ${command}\n${USAGE}`
        : USAGE,
    );
    return command && !["-h", "--help", "help"].includes(command) ? 2 : 0;
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
    else if (isEngineError(err))
      process.stderr.write(`${engineErrorText(parseLocale(process.env.CODEXPI_LOCALE), err)}\n`);
    else if (err instanceof Error && err.name === "UsageError")
      process.stderr.write(`${err.message}\n${USAGE}`);
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = err instanceof Error && err.name === "UsageError" ? 2 : 1;
  },
);
