import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import { migrate, openDatabase } from "../engine/database.js";
import { installLayoutProblems, installRoots, type LayoutProblem } from "../engine/agents/layout.js";
import { t, type Locale } from "../i18n/index.js";

/** One sentence naming both paths and what to do, in the operator's language. */
export function describeProblem(locale: Locale, p: LayoutProblem): string {
  return p.kind === "data_in_project"
    ? t(locale, "cli.layout.data_in_project", { data: p.dataDir, project: p.project, path: p.projectPath })
    : t(locale, "cli.layout.install_in_project", {
        project: p.project,
        path: p.projectPath,
        install: p.installDir,
      });
}

/**
 * What is unsafe in this install's layout (a data directory inside a project, a project holding
 * the install or the data), one sentence each naming both paths; empty when all is well.
 */
export async function layoutProblemsOf(config: Config): Promise<string[]> {
  const db = openDatabase(config.database);
  try {
    await migrate(db as unknown as Kysely<unknown>);
    return (await installLayoutProblems(db, installRoots(config))).map((p) =>
      describeProblem(config.locale, p),
    );
  } finally {
    await db.destroy();
  }
}
