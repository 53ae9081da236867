import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CATALOGUE = "docs/scenarios.md";
/** Where ids are cited: code, tests, scripts, the README and docs/. */
const CITING = ["src", "test", "scripts", "README.md", "docs"];

/** A scenario id as tests and comments cite it: `S-RUN-13`, `S-CO-01`, `S-Q-04`. */
const ID = /\bS-[A-Z]+-\d+\b/g;

/** The ids the catalogue defines: each entry opens with its id in bold (`- **S-RUN-13** — …`). */
function definedIds(catalogue: string): Set<string> {
  return new Set([...catalogue.matchAll(/^- \*\*(S-[A-Z]+-\d+)\*\*/gm)].map((m) => m[1]!));
}

/** Every `file:line: id` in `files` citing an id the catalogue does not define. */
function unknownIds(files: ReadonlyMap<string, string>, defined: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files)
    text.split("\n").forEach((line, i) => {
      for (const [id] of line.matchAll(ID)) if (!defined.has(id)) found.push(`${file}:${i + 1}: ${id}`);
    });
  return found;
}

/** The text files under `entry` (or `entry` itself), by path relative to the repository. */
function textFiles(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return [entry];
  return fs
    .readdirSync(entry, { withFileTypes: true })
    .filter((e) => e.name !== "node_modules")
    .flatMap((e) => textFiles(path.join(entry, e.name)))
    .filter((f) => /\.(ts|js|mjs|json|md|sh|sql|txt)$/.test(f) || f === "README.md");
}

// A comment or test title citing `S-RUN-13` must lead somewhere a reader can check: the catalogue
// lives in the repository, not beside it.
describe("scenario ids cited in the repository", () => {
  const defined = definedIds(fs.readFileSync(CATALOGUE, "utf8"));

  it("every id cited in src, test, scripts and the README is in docs/scenarios.md", () => {
    const files = new Map(
      CITING.flatMap(textFiles).map((f) => [f.split("\\").join("/"), fs.readFileSync(f, "utf8")] as const),
    );
    expect(files.size).toBeGreaterThan(100);
    expect(unknownIds(files, defined)).toEqual([]);
  });

  it("the catalogue defines each id once, in every family the suite cites", () => {
    const catalogue = fs.readFileSync(CATALOGUE, "utf8");
    const entries = [...catalogue.matchAll(/^- \*\*(S-[A-Z]+-\d+)\*\*/gm)].map((m) => m[1]!);
    expect(new Set(entries).size).toBe(entries.length);
    for (const family of ["S-PRO-01", "S-Q-01", "S-CO-01", "S-RUN-01", "S-OR-01"])
      expect(defined).toContain(family);
  });

  it("positive control: an unknown id in a fixture is reported with its file and line", () => {
    // Built from parts so this file itself cites no unknown id.
    const unknown = ["S", "RUN", "99"].join("-");
    const family = ["S", "ZZ", "1"].join("-");
    const fixture = new Map([
      ["src/a.ts", `// resumes the review (S-RUN-11)\nconst x = 1; // see ${unknown}, and S-CO-10`],
      ["test/b.test.ts", `it("${family}: no such family", () => {});`],
    ]);
    expect(unknownIds(fixture, defined)).toEqual([`src/a.ts:2: ${unknown}`, `test/b.test.ts:1: ${family}`]);
  });
});
