import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { asNeverCasts, tsFilesUnder } from "../support/sourceScan.js";

// Biome has no rule against `as never`; this test is that rule. A Bolt call that needs a cast means a
// view is not typed against @slack/types: type the view instead (src/views/blocks.ts).
describe("no `as never` cast in src", () => {
  it("no file under src/ casts to never", () => {
    const found = tsFilesUnder("src").flatMap((file) =>
      asNeverCasts(fs.readFileSync(file, "utf8")).map((line) => `${path.relative(".", file)}:${line}`),
    );
    expect(found).toEqual([]);
  });

  it("positive control: the scanner finds each cast in a fixture, and none in comments or strings", () => {
    const fixture = [
      "await client.views.open({ trigger_id, view: view as never });", // 1
      "// a comment saying as never is not a cast", // 2
      'const s = "as never, in a string";', // 3
      "const blocks = (",
      "  x as", // 5: split over two lines
      "  never);",
      "/* as never */ const url = 'http://x'; const y = z as never;", // 7
      "const n: never = w as neverland;", // 8: not the keyword
    ].join("\n");
    expect(asNeverCasts(fixture)).toEqual([1, 5, 7]);
  });
});
