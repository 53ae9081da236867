import { operatorCodexHome, readOperatorConfig } from "../engine/api/runtime.js";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.js";
import { t } from "../i18n/index.js";
import { checkName, type Check } from "./slackChecks.js";

/** Where a TOML parser placed its error (smol-toml's TomlError carries both, 1-based). */
interface Located {
  line: number;
  column: number;
}

const located = (err: unknown): err is Error & Located =>
  err instanceof Error &&
  typeof (err as Partial<Located>).line === "number" &&
  typeof (err as Partial<Located>).column === "number";

/**
 * The operator's config.toml parses: checked before the sandbox and the model, which would
 * otherwise fail on it with Codex's own words and no line (issue 32: a duplicate key read as a
 * sandbox failure). `parses` says whether the checks that read it may run.
 */
export function codexConfigCheck(config: Config): { check: Check; parses: boolean } {
  const name = checkName(config.locale, "codex_config");
  const file = path.join(operatorCodexHome(config.codexHome), "config.toml");
  if (!fs.existsSync(file))
    return {
      parses: true,
      check: { name, ok: true, detail: t(config.locale, "cli.doctor.codex_config_none", { file }) },
    };
  try {
    readOperatorConfig(path.dirname(file));
    return {
      parses: true,
      check: { name, ok: true, detail: t(config.locale, "cli.doctor.codex_config_ok", { file }) },
    };
  } catch (err) {
    // smol-toml's first line is the message; the lines after it quote the document.
    const message = ((err as Error).message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    const where = located(err) ? `${file}:${err.line}:${err.column}` : file;
    return {
      parses: false,
      check: {
        name,
        ok: false,
        detail: t(config.locale, "cli.doctor.codex_config_invalid", { where, message, file }),
      },
    };
  }
}
