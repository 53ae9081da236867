import fs from "node:fs";
import path from "node:path";
import type { Database } from "../../src/engine/database.js";
import { addProject } from "../../src/engine/projects/index.js";
import { OWNER } from "./slackBot.js";

/**
 * Another project of the owner's, beside slackBot's `demo`: a person who may prompt a single
 * project is never asked "Which project?" (S-CHAN-04), so a test of the question needs two.
 */
export async function secondProject(
  b: { db: Database; config: { dataDir: string } },
  name = "zeta",
  ownerId: string = OWNER,
): Promise<void> {
  const dir = path.join(path.dirname(b.config.dataDir), name);
  fs.mkdirSync(dir);
  await addProject(b.db, { now: () => Date.now() }, { name, path: dir, ownerId });
}
