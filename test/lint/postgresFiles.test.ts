import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_FILES, POSTGRES_ONLY_FILES, SQLITE_ONLY_ENGINE_FILES } from "../support/postgresFiles.js";
import { tsFilesUnder } from "../support/sourceScan.js";

/** Which of `files` are engine test files not accounted for by the two lists. */
function unaccounted(files: string[], postgres: string[], sqliteOnly: Record<string, string>): string[] {
  return files
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => !postgres.includes(f) && !(f in sqliteOnly));
}

// The engine suite runs on both dialects: a new engine test file must join the postgres project
// or say why it need not (test/support/postgresFiles.ts).
describe("the postgres project's file list", () => {
  const engineTests = tsFilesUnder("test/engine").map((f) => f.split("\\").join("/"));

  it("names every engine test file once: run on PostgreSQL too, or SQLite-only with its reason", () => {
    expect(unaccounted(engineTests, POSTGRES_FILES, SQLITE_ONLY_ENGINE_FILES)).toEqual([]);
    expect(POSTGRES_FILES.filter((f) => f in SQLITE_ONLY_ENGINE_FILES)).toEqual([]);
    expect(new Set(POSTGRES_FILES).size).toBe(POSTGRES_FILES.length);
    for (const reason of Object.values(SQLITE_ONLY_ENGINE_FILES)) expect(reason.length).toBeGreaterThan(10);
  });

  it("names only files that exist, and runs every PostgreSQL-only file", () => {
    for (const f of [...POSTGRES_FILES, ...Object.keys(SQLITE_ONLY_ENGINE_FILES)])
      expect(fs.existsSync(f), f).toBe(true);
    expect(POSTGRES_ONLY_FILES.filter((f) => !POSTGRES_FILES.includes(f))).toEqual([]);
  });

  it("positive control: an engine test file in neither list is found", () => {
    expect(
      unaccounted(["test/engine/new.test.ts", "test/engine/queryPlans.test.ts", "test/engine/repo.ts"], [], {
        "test/engine/queryPlans.test.ts": "a reason",
      }),
    ).toEqual(["test/engine/new.test.ts"]);
  });
});
