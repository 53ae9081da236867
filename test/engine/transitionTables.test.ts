import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = path.join(ROOT, "src/engine");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

/** Type-checks a module importing the engine's machine types; returns its error messages. */
function typeErrors(body: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-tables-"));
  try {
    const file = path.join(dir, "table.mts");
    const head = [
      `import type { TransitionTable, ActionTable } from ${JSON.stringify(path.join(SRC, "stateMachine.js"))};`,
      `import type { DecisionStatus } from ${JSON.stringify(path.join(SRC, "coordination/decisionMachine.js"))};`,
    ].join("\n");
    fs.writeFileSync(file, `${head}\n${body}\n`);
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        skipLibCheck: true,
        types: [],
      },
      files: ["table.mts"],
    };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    // The project's own compiler (the one `npm run build` uses), on a project of one file.
    const run = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
    if (run.error) throw run.error;
    return run.stdout.split("\n").filter((l) => l.includes("error"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

// The tables are checked at compile time: a status without its row, or a row naming an unknown
// status, does not compile. Proven here with the compiler itself, with a table that does (control).
describe("transition tables are checked at compile time", () => {
  it("a table missing a status or naming an unknown one fails to compile; the complete table compiles", () => {
    expect(
      typeErrors(
        `export const T = { OPEN: ["ANSWERED", "CANCELLED"], ANSWERED: [], CANCELLED: [] } as const satisfies TransitionTable<DecisionStatus>;`,
      ),
    ).toEqual([]);
    const missing = typeErrors(
      `export const T = { OPEN: ["ANSWERED", "CANCELLED"], ANSWERED: [] } as const satisfies TransitionTable<DecisionStatus>;`,
    );
    expect(missing.join("\n")).toMatch(/CANCELLED/);
    const unknown = typeErrors(
      `export const T = { OPEN: ["CLOSED"], ANSWERED: [], CANCELLED: [] } as const satisfies TransitionTable<DecisionStatus>;`,
    );
    expect(unknown.join("\n")).toMatch(/CLOSED/);
    const action = typeErrors(
      `export const A = { answer: ["OPEN"] } as const satisfies ActionTable<DecisionStatus, "answer" | "cancel">;`,
    );
    expect(action.join("\n")).toMatch(/cancel/);
  }, 60_000);
});
