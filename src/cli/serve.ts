import { parseArgs } from "node:util";
import { missingSlack, parseConfig, type Config } from "../config.js";
import { t } from "../i18n/index.js";

/**
 * `codexpi serve` (`npm start`). A bot that cannot reach Slack is no bot: without Slack's settings
 * serve runs only when asked to (`--headless`, CODEXPI_HEADLESS=1: the CLI-only set-up) rather
 * than serving a healthy-looking process nobody can talk to. That refusal comes before the engine
 * and Slack's SDK load, so that it answers at once.
 */
export async function run(argv: string[]): Promise<number> {
  const asked = headlessFlag(argv);
  // Malformed arguments are the full command's to report, with its usage.
  if (asked !== null) {
    const config = parseConfig();
    const missing = asked || config.headless ? null : noSlack(config);
    if (missing) {
      process.stderr.write(`${missing}\n`);
      return 1;
    }
  }
  return (await import("./serveLoop.js")).serve(argv);
}

/** Whether `--headless` is given; null when the arguments are not serve's. */
function headlessFlag(argv: string[]): boolean | null {
  try {
    const { values } = parseArgs({ args: argv, options: { headless: { type: "boolean" } }, strict: true });
    return values.headless === true;
  } catch {
    return null;
  }
}

/** The one line saying which Slack variables serve lacks and where to read how to set them; null when none. */
function noSlack(config: Config): string | null {
  const { botToken, mode } = missingSlack(config);
  if (!botToken && !mode) return null;
  const names = [
    botToken ? "SLACK_BOT_TOKEN" : null,
    mode ? t(config.locale, "cli.serve.slack_missing_mode") : null,
  ];
  return t(config.locale, "cli.serve.no_slack", { missing: names.filter(Boolean).join(", ") });
}
