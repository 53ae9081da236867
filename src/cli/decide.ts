import { CLI_ACTOR } from "../engine/api/model.js";
import { argErrorText } from "./argErrors.js";
import { parseArgs } from "node:util";
import { t } from "../i18n/index.js";
import { cliEngine, cliLocale, out, UsageError } from "./context.js";

/**
 * `codexpi decide <decision-id> <option-id>[,<option-id>…] | --text "…"`: the same use case as
 * the Slack buttons, as the local operator (admin); the agent resumes in its conversation.
 */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = decideArgs(argv);
  const { db, api, config } = await cliEngine();
  try {
    const options = (positionals[1] ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    await api.decisions.answer(CLI_ACTOR, positionals[0] as string, options, values.text ?? "");
    out(t(config.locale, "decision.answered_ack"));
    return 0;
  } finally {
    await db.destroy();
  }
}

// One or two positionals: the options may be left out when `--text` answers.
function decideArgs(argv: string[]) {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError(argErrorText(cliLocale(), err, DECIDE_OPTIONS));
  }
  const n = parsed.positionals.length;
  if (n < 1 || n > 2 || (n === 1 && !parsed.values.text))
    throw new UsageError(t(cliLocale(), "cli.error.decide_arguments", { n }));
  return parsed;
}

const DECIDE_OPTIONS = { text: { type: "string" } } as const;

const parse = (argv: string[]) =>
  parseArgs({ args: argv, options: DECIDE_OPTIONS, allowPositionals: true, strict: true });
