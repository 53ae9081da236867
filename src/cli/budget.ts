import { CLI_ACTOR } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { limitsText } from "../views/usage.js";
import { args, cliEngine, out, UsageError } from "./context.js";

const limitOf = (v: string | undefined): number | null | undefined =>
  v === undefined ? undefined : v === "none" ? null : /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN;

/**
 * `codexpi budget set project|user NAME [--daily N|none] [--monthly N|none]`, `budget list`,
 * `budget clear project|user NAME`: the same budgets as `/codex budget` (the CLI acts as an admin).
 */
export async function run(argv: string[]): Promise<number> {
  const verb = argv[0];
  const n = verb === "list" ? 1 : 3;
  const { values, positionals } = args(argv, { daily: { type: "string" }, monthly: { type: "string" } }, n);
  const [, scope, name] = positionals;
  const { db, api, config } = await cliEngine();
  const locale = config.locale;
  try {
    if (verb === "list") {
      const budgets = await api.usage.budgets(CLI_ACTOR);
      if (budgets.length === 0) out(t(locale, "cli.budget.none"));
      for (const b of budgets)
        out(`${b.scope} ${b.name}: ${limitsText(locale, b.limits)} (${b.used.daily} / ${b.used.monthly})`);
      return 0;
    }
    if ((scope !== "project" && scope !== "user") || !name || (verb !== "set" && verb !== "clear"))
      throw new UsageError(t(locale, "cli.error.arguments", { n: 3, got: positionals.length }));
    const target = { scope, name } as const;
    const change =
      verb === "clear"
        ? await api.usage.clearBudget(CLI_ACTOR, target)
        : await api.usage.setBudget(CLI_ACTOR, target, {
            daily: limitOf(values.daily),
            monthly: limitOf(values.monthly),
          });
    // The change as data (what the audit trail records), one JSON line.
    out(JSON.stringify(change));
    return 0;
  } finally {
    await db.destroy();
  }
}
