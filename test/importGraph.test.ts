import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildFolderGraph,
  buildImportGraph,
  findCycles,
  importsOf,
  type ImportGraph,
} from "./support/importGraph.js";

const show = (cycles: string[][]) => cycles.map((c) => c.join(" → "));

// Generated from Codex's own schema (scripts/gen-app-server-protocol.ts): its folders import each
// other as upstream wrote them, so the generated tree counts as one unit.
const GENERATED = "engine/codex/appServer/protocol/";

/** The graph of src/ with the generated protocol collapsed into one file-like node. */
function sourceGraph(): ImportGraph {
  const name = (f: string) => (f.startsWith(GENERATED) ? `${GENERATED}(generated).ts` : f);
  const graph: ImportGraph = new Map();
  for (const [file, targets] of buildImportGraph(path.resolve("src"), { runtimeOnly: false })) {
    const edges = graph.get(name(file)) ?? new Set<string>();
    for (const t of targets) if (name(t) !== name(file)) edges.add(name(t));
    graph.set(name(file), edges);
  }
  return graph;
}

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
    // engine/api/ is the entry points' way in (it composes, it is no aggregate).
    expect(importers.filter((f) => f.startsWith("engine/") && !f.startsWith("engine/api/"))).toEqual([]);
  });

  it("has no cycle between folders either (each leaf folder one unit, each file of src/ and src/engine/ its own)", () => {
    expect(show(findCycles(buildFolderGraph(sourceGraph())))).toEqual([]);
  });

  it("the kernel imports nothing from the aggregates: only engine/ files and engine/system/", () => {
    const kernel = [...(sourceGraph().get("engine/kernel.ts") ?? [])];
    expect(kernel.length).toBeGreaterThan(0);
    const aggregate = (f: string) =>
      f.startsWith("engine/") && f.split("/").length > 2 && !f.startsWith("engine/system/");
    expect(kernel.filter(aggregate)).toEqual([]);
  });

  it("positive control: a folder cycle that no file cycle shows is found and printed", () => {
    const files = buildImportGraph(path.resolve("test/fixtures/folderCycle"), { runtimeOnly: false });
    expect(findCycles(files)).toEqual([]);
    expect(show(findCycles(buildFolderGraph(files)))).toEqual(["billing → orders → billing"]);
  });

  it("positive control: a fixture whose cycle is closed by a type-only import is found and printed", () => {
    const root = path.resolve("test/fixtures/importCycle");
    expect(show(findCycles(buildImportGraph(root, { runtimeOnly: false })))).toEqual([
      "a/service.ts → b/helper.ts → root.ts → a/service.ts",
    ]);
    // The same fixture has no runtime cycle: the closing edge is erased (and a comment is no edge).
    expect(findCycles(buildImportGraph(root, { runtimeOnly: true }))).toEqual([]);
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
