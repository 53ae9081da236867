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

/**
 * One type-check for both tests (each run of tsc checks most of src/, about 7 s of CPU): the
 * file as it is, and its control copy without the @ts-expect-error lines, in one project. tsc
 * reports each error under its file's name, so the two are told apart.
 */
let checked: Promise<{ code: number; elsewhere: string; control: string }> | undefined;

function checkBoth(): Promise<{ code: number; elsewhere: string; control: string }> {
  checked ??= (async () => {
    const source = fs
      .readFileSync(path.join(TYPES, "rendererMap.typecheck.ts"), "utf8")
      .replace(/^\/\/ @ts-expect-error.*$/gm, "");
    const control = `control-${process.pid}.ts`;
    const project = path.join(TYPES, `control-${process.pid}.tsconfig.json`);
    fs.writeFileSync(path.join(TYPES, control), source);
    fs.writeFileSync(project, JSON.stringify({ extends: "./tsconfig.json", files: [control] }));
    try {
      const { code, output } = await tsc(project);
      // Each error starts with a line naming its file; its explanation follows, indented.
      const errors = output.split(/\n(?=\S)/).filter((e) => /error TS\d+/.test(e));
      const inControl = (e: string) => e.startsWith(control) || e.includes(`/${control}`);
      return {
        code,
        elsewhere: errors.filter((l) => !inControl(l)).join("\n"),
        control: errors.filter(inControl).join("\n"),
      };
    } finally {
      fs.rmSync(path.join(TYPES, control), { force: true });
      fs.rmSync(project, { force: true });
    }
  })();
  return checked;
}

describe("the notifier's renderer map (compile time)", () => {
  it("does not compile when a kind is missing, misplaced or misspelt (every @ts-expect-error is used)", async () => {
    const { elsewhere, control } = await checkBoth();
    expect(elsewhere).toBe(""); // nothing in the file as it is, nor in what it imports
    expect(control).not.toBe(""); // tsc did check (the control's errors are there)
  });

  it("positive control: the same file without its @ts-expect-error lines fails on each of the three maps", async () => {
    const { code, control } = await checkBoth();
    expect(code).not.toBe(0);
    expect(control).toMatch(/'"run\.verdict"' is missing/);
    expect(control).toMatch(/not assignable to type '"ignored" \| Renderer<"incident\.opened">'/);
    expect(control).toMatch(/'"run\.verdit"' does not exist/);
  });
});
