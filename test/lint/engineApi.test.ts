import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildImportGraph } from "../support/importGraph.js";

// Issue 17, "one engine API": the bot and the CLI reach the engine only through src/engine/api/
// (its capability objects, its model of types and pure rules, its runtime for entry points).
// Anything else they import from src/engine is an internal they must not lean on.

/** Each import from src/bot, src/forge or src/cli into src/engine that is not src/engine/api/. */
function engineInternalsImported(root: string): string[] {
  const graph = buildImportGraph(root, { runtimeOnly: false });
  return [...graph]
    .filter(([file]) => file.startsWith("bot/") || file.startsWith("forge/") || file.startsWith("cli/"))
    .flatMap(([file, targets]) =>
      [...targets]
        .filter((t) => t.startsWith("engine/") && !t.startsWith("engine/api/"))
        .map((t) => `${file} → ${t}`),
    )
    .sort();
}

describe("the engine API is the one way in", () => {
  it("src/bot, src/forge and src/cli import nothing from src/engine but src/engine/api/", () => {
    expect(engineInternalsImported(path.resolve("src"))).toEqual([]);
  });

  it("positive control: a listener importing an engine internal is named, the API import is not", () => {
    expect(engineInternalsImported(path.resolve("test/fixtures/engineApi/src"))).toEqual([
      "bot/listener.ts → engine/conversations/stop.ts",
    ]);
  });
});
