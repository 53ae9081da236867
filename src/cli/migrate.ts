import type { Kysely } from "kysely";
import { parseConfig } from "../config.js";
import { migrate, openDatabase } from "../engine/database.js";
import { args, out } from "./context.js";

/** `codexpi migrate`: upgrades the database to the latest schema. */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const config = parseConfig();
  const db = openDatabase(config.databasePath);
  try {
    const applied = await migrate(db as unknown as Kysely<unknown>);
    out(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
    return 0;
  } finally {
    await db.destroy();
  }
}
