import type { ParseArgsConfig } from "node:util";
import { t, type Locale } from "../i18n/index.js";
import { closest } from "../suggest.js";

/** The option (e.g. `--wiat`) node's parseArgs names first in its message, quotes and `<value>` removed. */
const optionIn = (message: string): string =>
  (/'([^']+)'/.exec(message)?.[1] ?? "").replace(/\s*<value>$/, "");

/**
 * The sentence for a parseArgs error, wholly from the catalog: node's own message is English
 * whatever the operator's language, so only the option it names is kept (with a "did you mean"
 * among the command's options for an unknown one).
 */
export function argErrorText(locale: Locale, err: unknown, options: ParseArgsConfig["options"]): string {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const option = optionIn(message);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const names = Object.entries(options ?? {}).flatMap(([name, o]) => [
      `--${name}`,
      ...(o.short ? [`-${o.short}`] : []),
    ]);
    const guess = closest(option, names);
    const text = t(locale, "cli.error.unknown_option", { option });
    return guess ? `${text} ${t(locale, "cli.did_you_mean", { name: guess })}` : text;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return t(locale, /does not take/.test(message) ? "cli.error.option_no_value" : "cli.error.option_value", {
      option,
    });
  return t(locale, "cli.error.invalid_arguments");
}
