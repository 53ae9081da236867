import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openMigrated } from "../../src/engine/database.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated SQLite file every SQLite test database is copied from (testDatabase.ts). */
    sqliteTemplate: string;
  }
}

/**
 * The sqlite project's global setup: the migrations run once, into a template file; each test's
 * database is a copy of it (a few ms, where migrating a fresh file takes 0.3–1 s on a busy machine).
 * The copy is what `openMigrated` would have left: it still runs, and finds nothing to apply.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-sqlite-template-"));
  const file = path.join(dir, "codexpi.db");
  const db = await openMigrated(file);
  await db.destroy(); // a clean close checkpoints the WAL into the file: the file alone is complete
  project.provide("sqliteTemplate", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
