import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const TYPES = path.resolve("test/types");
const TSC = path.resolve("node_modules/.bin/tsc");

/** Type-checks a project; resolves with tsc's exit code and output. */
async function tsc(project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(TSC, ["-p", project], { cwd: path.resolve(".") });
    return { code: 0, output: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("the notifier's renderer map (compile time)", () => {
  it("does not compile when a kind is missing, misplaced or misspelt (every @ts-expect-error is used)", async () => {
    const { code, output } = await tsc(path.join(TYPES, "tsconfig.json"));
    expect(output).toBe("");
    expect(code).toBe(0);
  });

  it("positive control: the same file without its @ts-expect-error lines fails on each of the three maps", async () => {
    const source = fs
      .readFileSync(path.join(TYPES, "rendererMap.typecheck.ts"), "utf8")
      .replace(/^\/\/ @ts-expect-error.*$/gm, "");
    const file = path.join(TYPES, `control-${process.pid}.ts`);
    const project = path.join(TYPES, `control-${process.pid}.tsconfig.json`);
    fs.writeFileSync(file, source);
    fs.writeFileSync(
      project,
      JSON.stringify({ extends: "./tsconfig.json", include: [], files: [path.basename(file)] }),
    );
    try {
      const { code, output } = await tsc(project);
      expect(code).not.toBe(0);
      expect(output).toMatch(/'"run\.verdict"' is missing/);
      expect(output).toMatch(/not assignable to type '"ignored" \| Renderer<"incident\.opened">'/);
      expect(output).toMatch(/'"run\.verdit"' does not exist/);
    } finally {
      fs.rmSync(file, { force: true });
      fs.rmSync(project, { force: true });
    }
  });
});
