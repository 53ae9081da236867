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
  const head = [
    `import type { TransitionTable, ActionTable } from ${JSON.stringify(path.join(SRC, "stateMachine.js"))};`,
    `import type { DecisionStatus } from ${JSON.stringify(path.join(SRC, "coordination/decisionMachine.js"))};`,
  ].join("\n");
  return compile({ "table.mts": `${head}\n${body}\n` });
}

/** Type-checks the given modules as one project of their own; returns the error messages. */
function compile(files: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-tables-"));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
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
      files: Object.keys(files),
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

/**
 * A copy of one of the engine's own machine modules (its relative imports made absolute), with
 * `cut` taken out of it: the cut must be there, so the copy is exactly the module minus that line.
 */
function machineCopy(module: string, cut?: string): string {
  const text = fs
    .readFileSync(path.join(SRC, module), "utf8")
    .replaceAll(/from "\.\.\/([^"]+)"/g, (_m, rel: string) => `from ${JSON.stringify(path.join(SRC, rel))}`);
  if (cut === undefined) return text;
  if (!text.includes(cut)) throw new Error(`${module} has no ${JSON.stringify(cut)}`);
  return text.replace(cut, "");
}

// Issue 17, item 6: the runs' and orchestrations' own tables are shared TransitionTable and
// ActionTable ones, so the compiler holds them to every status and every action too.
describe("the runs' and orchestrations' tables are checked at compile time", () => {
  it("their modules compile as they are, and not without a status's row or an action's", () => {
    const errors = compile({
      "runs.mts": machineCopy("runs/machine.ts"),
      "orchestrations.mts": machineCopy("orchestrations/machine.ts"),
      "runsNoCompleted.mts": machineCopy("runs/machine.ts", "  COMPLETED: [],\n"),
      "stepsNoApproved.mts": machineCopy("runs/machine.ts", "  APPROVED: [],\n"),
      "orchestrationsNoMerged.mts": machineCopy("orchestrations/machine.ts", "  MERGED: [],\n"),
      "orchestrationsNoResume.mts": machineCopy(
        "orchestrations/machine.ts",
        '  resume: ["PREPARING", "MERGING", "CANCELLING"],\n',
      ),
    });
    const of = (file: string) => errors.filter((e) => e.includes(`${file}(`)).join("\n");
    expect(of("runs.mts")).toBe(""); // controls: the modules as they are compile
    expect(of("orchestrations.mts")).toBe("");
    expect(of("runsNoCompleted.mts")).toMatch(/COMPLETED/);
    expect(of("stepsNoApproved.mts")).toMatch(/APPROVED/);
    expect(of("orchestrationsNoMerged.mts")).toMatch(/MERGED/);
    expect(of("orchestrationsNoResume.mts")).toMatch(/resume/);
  }, 60_000);
});
