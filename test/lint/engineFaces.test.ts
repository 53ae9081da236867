import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue 17, "a folder per capability with a public face": a module outside one of the engine's
// folders imports it through that folder's index.ts only, so what a capability offers the others
// is one file to read. `import type {} from "…/schema.js"` (a module augmentation of the schema,
// no name imported) is not a use of the folder's code and is let through.

const IMPORT = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g;

/** Each import into a folder of `engine/` (other than `api`) from outside it, not through its index.ts. */
function sideDoors(root: string): string[] {
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
  const folderOf = (file: string): string | null => {
    const parts = file.split(path.sep);
    return parts[0] === "engine" && parts.length > 2 && parts[1] !== "api" ? parts[1]! : null;
  };
  return files
    .flatMap((file) =>
      [...fs.readFileSync(path.join(root, file), "utf8").matchAll(IMPORT)].flatMap(([, names, spec]) => {
        const target = path.normalize(path.join(path.dirname(file), spec!)).replace(/\.js$/, ".ts");
        const folder = folderOf(target);
        if (!folder || folder === folderOf(file) || !names!.trim()) return [];
        return target === path.join("engine", folder, "index.ts") ? [] : [`${file} → ${target}`];
      }),
    )
    .sort();
}

describe("each folder of the engine has one public face", () => {
  it("src/ imports an engine folder from outside only through its index.ts", () => {
    expect(sideDoors(path.resolve("src"))).toEqual([]);
  });

  it("positive control: an import past a folder's index.ts is named, the one through it is not", () => {
    expect(sideDoors(path.resolve("test/fixtures/engineFaces"))).toEqual([
      `engine/orders/place.ts → ${path.join("engine", "billing", "charge.ts")}`,
    ]);
  });
});
