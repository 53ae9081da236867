import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { tsFilesUnder } from "../support/sourceScan.js";
import { unusedExports } from "../support/unusedExports.js";

/** Modules run, not imported: their exports are for no one. */
const ENTRY_POINTS = new Set(["src/main.ts"]);

// An export nobody imports is either dead code or a name that should stay private; Biome sees one
// file at a time and cannot tell. Tests, scripts and migrations count as importers.
describe("every export in src is imported somewhere", () => {
  it("no module under src/ exports a name no other module imports", () => {
    const files = new Map(
      ["src", "test", "scripts", "db"]
        .flatMap((dir) => tsFilesUnder(dir))
        .map((file) => [file.split("\\").join("/"), fs.readFileSync(file, "utf8")] as const),
    );
    expect(unusedExports(files, (file) => file.startsWith("src/") && !ENTRY_POINTS.has(file))).toEqual([]);
  });

  it("positive control: the scanner finds the unused exports of a fixture, following re-exports", () => {
    const files = new Map([
      [
        "src/a.ts",
        [
          "export const used = 1;",
          "export const unused = 2;",
          "export function viaStar() {}",
          "export function viaNamed() {}",
          "export interface Shape { n: number }", // named by an exported signature: stays exported
          "export const make = (): Shape => ({ n: 1 });",
          "export type Lonely = string;", // named nowhere else: flagged
          "// export const inAComment = 3;",
        ].join("\n"),
      ],
      [
        "src/b.ts",
        'export * from "./a.js";\nexport { viaNamed as renamed, unused as alsoUnused } from "./a.js";',
      ],
      ["src/ns.ts", "export const dotted = 1;\nexport const notDotted = 2;"],
      ["src/lazy.ts", "export const loaded = 1;\nexport const other = 2;"],
      [
        "src/main.ts",
        [
          'import { used } from "./a.js";',
          'import { viaStar, renamed, type make } from "./b.js";',
          'import * as ns from "./ns.js";',
          "export const fromEntry = ns.dotted;",
          'const l = (await import("./lazy.js")).loaded;',
          'type T = import("./lazy.js").other;',
        ].join("\n"),
      ],
    ]);
    expect(unusedExports(files, (file) => file !== "src/main.ts")).toEqual([
      "src/a.ts: Lonely",
      "src/a.ts: unused",
      "src/b.ts: alsoUnused",
      "src/ns.ts: notDotted",
    ]);
  });
});
