import {
  createEngineApi,
  Engine,
  type LayoutProblem,
  migrateIfBehind,
  openDatabase,
} from "../engine/api/runtime.js";
import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import { t, type Locale } from "../i18n/index.js";

/** One sentence naming both paths (both projects, for an overlap) and what to do, in the operator's language. */
export function describeProblem(locale: Locale, p: LayoutProblem): string {
  if (p.kind === "data_in_project")
    return t(locale, "cli.layout.data_in_project", {
      data: p.dataDir,
      project: p.project,
      path: p.projectPath,
    });
  if (p.kind === "install_in_project")
    return t(locale, "cli.layout.install_in_project", {
      project: p.project,
      path: p.projectPath,
      install: p.installDir,
    });
  return t(locale, p.same ? "cli.layout.project_same" : "cli.layout.project_inside", {
    project: p.project,
    path: p.projectPath,
    other: p.other,
    otherPath: p.otherPath,
  });
}

/**
 * What is unsafe in this install's layout (a data directory inside a project, a project holding
 * the install or the data, two projects overlapping); empty when all is well.
 */
export async function installProblemsOf(config: Config): Promise<LayoutProblem[]> {
  const db = openDatabase(config.database);
  try {
    await migrateIfBehind(db as unknown as Kysely<unknown>);
    return await createEngineApi(new Engine({ config, db })).projects.layoutProblems();
  } finally {
    await db.destroy();
  }
}

/** `installProblemsOf`, one sentence each naming both paths or both projects. */
export async function layoutProblemsOf(config: Config): Promise<string[]> {
  return (await installProblemsOf(config)).map((p) => describeProblem(config.locale, p));
}
