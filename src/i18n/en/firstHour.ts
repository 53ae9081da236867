import type { firstHour as fr } from "../fr/firstHour.js";
import type { Message } from "../message.js";

/** English messages of the first hour: `serve` without Slack, the .env file, the model's state (issue 20). */
export const firstHour = {
  "cli.serve.no_slack":
    "codexpi serve will not start without Slack: {missing} not set. Follow README.md#quick-start (Slack tokens in .env), or run `codexpi serve --headless` (CODEXPI_HEADLESS=1) for the command-line-only set-up.",
  "cli.serve.slack_missing_mode": "SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP)",
  "cli.env_file.unreadable":
    "cannot read the environment file {file}: {reason}. Fix: correct it, or set CODEXPI_ENV_FILE=none to read no file.",
} satisfies Record<keyof typeof fr, Message>;
