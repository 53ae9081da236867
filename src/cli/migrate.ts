import { migrate, openDatabase } from "../engine/api/runtime.js";
import type { Kysely } from "kysely";
import { parseConfig } from "../config.js";
import { t } from "../i18n/index.js";
import { args, out } from "./context.js";

/** `codexpi migrate`: upgrades the database to the latest schema. */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const config = parseConfig();
  const db = openDatabase(config.database);
  try {
    const applied = await migrate(db as unknown as Kysely<unknown>);
    out(
      applied.length
        ? t(config.locale, "cli.migrate.applied", { names: applied.join(", ") })
        : t(config.locale, "cli.migrate.up_to_date"),
    );
    return 0;
  } finally {
    await db.destroy();
  }
}
