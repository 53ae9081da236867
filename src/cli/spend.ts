import { CLI_ACTOR } from "../engine/api/model.js";
import { usageLines } from "../views/usage.js";
import { args, cliEngine, out, UsageError } from "./context.js";
import { t } from "../i18n/index.js";

/** `codexpi usage [PROJECT] [--days N] [--json]`: what turns used, as `/codex usage` shows it. */
export async function run(argv: string[]): Promise<number> {
  const wanted = argv.filter((a, i) => !a.startsWith("-") && argv[i - 1] !== "--days").length;
  const { values, positionals } = args(
    argv,
    { days: { type: "string" }, json: { type: "boolean", default: false } },
    Math.min(wanted, 1),
  );
  const days = values.days === undefined ? undefined : Number(values.days);
  const { db, api, config } = await cliEngine();
  try {
    if (days !== undefined && !Number.isInteger(days))
      throw new UsageError(t(config.locale, "reason.usage_days_invalid"));
    const report = await api.usage.report(CLI_ACTOR, { project: positionals[0] ?? null, days });
    if (values.json) out(JSON.stringify(report));
    else {
      out(
        t(config.locale, "spend.title", { days: report.days, project: report.project ?? "" }).replace(
          /\*/g,
          "",
        ),
      );
      for (const line of usageLines(config.locale, report, { project: (n) => n, person: (p) => p }))
        out(line.replace(/\*/g, ""));
    }
    return 0;
  } finally {
    await db.destroy();
  }
}
