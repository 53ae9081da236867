import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import { migrate, openDatabase } from "../engine/database.js";
import { describeProblem, installLayoutProblems, installRoots } from "../engine/agents/layout.js";

/**
 * What is unsafe in this install's layout (a data directory inside a project, a project holding
 * the install or the data), one sentence each naming both paths; empty when all is well.
 */
export async function layoutProblemsOf(config: Config): Promise<string[]> {
  const db = openDatabase(config.database);
  try {
    await migrate(db as unknown as Kysely<unknown>);
    return (await installLayoutProblems(db, installRoots(config))).map(describeProblem);
  } finally {
    await db.destroy();
  }
}
