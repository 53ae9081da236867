import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tsFilesUnder } from "../support/sourceScan.js";

// DESIGN "The forge is a second front end": like src/bot, src/forge reaches the engine only through
// its API (test/lint/engineApi.test.ts) and queries only its own tables (forge_*), in its store.

/** Each query of a table that is not the forge front end's, or outside src/forge/store/. */
function crossings(source: string, inStore: boolean): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(
    /\.(selectFrom|updateTable|insertInto|deleteFrom|innerJoin)\(\s*["'`]([^"'`\s]+)/g,
  )) {
    if (!inStore || !m[2]!.startsWith("forge_")) found.push(`${m[1]}("${m[2]}")`);
  }
  for (const m of source.matchAll(/from\s*["']([^"']+)["']/g))
    if (m[1] === "kysely" || /engine\/schema(\.js)?$/.test(m[1]!)) found.push(`imports ${m[1]}`);
  return found;
}

describe("the forge front end's boundary", () => {
  it("src/forge queries only the forge_* tables, in src/forge/store alone, and imports neither kysely nor the engine's schema", () => {
    const found = tsFilesUnder("src/forge").flatMap((file) => {
      const inStore = path.relative("src/forge", file).startsWith(`store${path.sep}`);
      return crossings(fs.readFileSync(file, "utf8"), inStore).map((c) => `${file}: ${c}`);
    });
    expect(found).toEqual([]);
  });

  it("positive control: an engine table, a forge table outside the store, and kysely are each named", () => {
    const source = [
      'import { sql } from "kysely";',
      'db.selectFrom("prompt_queue")',
      'db.insertInto("forge_links")',
    ].join("\n");
    expect(crossings(source, false)).toEqual([
      'selectFrom("prompt_queue")',
      'insertInto("forge_links")',
      "imports kysely",
    ]);
    expect(crossings(source, true)).toEqual(['selectFrom("prompt_queue")', "imports kysely"]);
  });
});
