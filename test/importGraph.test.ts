import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildImportGraph, findCycles, importsOf, unitGraph } from "./support/importGraph.js";

const show = (cycles: string[][]) => cycles.map((c) => c.join(" → "));

// Type-only imports count. They cannot make a runtime cycle (TypeScript erases them, and the
// runtime graph is a subgraph of this one), but they are how the layers depend on each other: the
// cycle issue 7 names (engine.ts ↔ every aggregate) was made only of `import type { Engine }`.
// Checking the full graph keeps both acyclic.
describe("the import graph of src/", () => {
  it("has no cycle, type-only imports included", () => {
    const cycles = findCycles(buildImportGraph(path.resolve("src"), { runtimeOnly: false }));
    expect(show(cycles)).toEqual([]);
  });

  it("no aggregate imports the composition root: only the entry points do", () => {
    const graph = buildImportGraph(path.resolve("src"), { runtimeOnly: false });
    const importers = [...graph].filter(([, targets]) => targets.has("engine/engine.ts")).map(([f]) => f);
    expect(importers.filter((f) => f.startsWith("engine/"))).toEqual([]);
  });

  it("positive control: a fixture whose cycle is closed by a type-only import is found and printed", () => {
    const root = path.resolve("test/fixtures/importCycle");
    expect(show(findCycles(buildImportGraph(root, { runtimeOnly: false })))).toEqual([
      "a/service.ts → b/helper.ts → root.ts → a/service.ts",
    ]);
    // The same fixture has no runtime cycle: the closing edge is erased (and a comment is no edge).
    expect(findCycles(buildImportGraph(root, { runtimeOnly: true }))).toEqual([]);
  });

  // Issue 17: bot/intake, bot/notifier, bot/store and bot/listeners imported each other with no
  // file cycle (store → intake for a type, intake → notifier for a constant). bot/store is the
  // lowest; the check keeps the folders layered.
  it("the folders of src/bot import each other without a cycle (each file directly in bot/ its own unit)", () => {
    const units = unitGraph(buildImportGraph(path.resolve("src"), { runtimeOnly: false }), "bot");
    expect(units.has("bot/store")).toBe(true);
    expect(show(findCycles(units))).toEqual([]);
  });

  it("positive control: two folders importing each other through different files are a unit cycle", () => {
    const graph = buildImportGraph(path.resolve("test/fixtures/folderCycle"), { runtimeOnly: false });
    expect(findCycles(graph)).toEqual([]);
    expect(show(findCycles(unitGraph(graph, "")))).toEqual(["a → b → a"]);
  });

  it("reads each form of import, and which ones TypeScript erases", () => {
    const source = [
      'import { a, type B } from "./a.js";',
      'import type { C } from "./c.js";',
      'import { type D, type E } from "./d.js";',
      'export { f } from "./f.js";',
      'export type { G } from "./g.js";',
      'import "./side.js";',
      'const h = await import("./h.js");',
      'import fs from "node:fs";',
      '/* import { x } from "./commented.js"; */',
    ].join("\n");
    expect(importsOf(source)).toEqual([
      { spec: "./a.js", typeOnly: false },
      { spec: "./c.js", typeOnly: true },
      { spec: "./d.js", typeOnly: true },
      { spec: "./f.js", typeOnly: false },
      { spec: "./g.js", typeOnly: true },
      { spec: "./side.js", typeOnly: false },
      { spec: "./h.js", typeOnly: false },
    ]);
  });
});
