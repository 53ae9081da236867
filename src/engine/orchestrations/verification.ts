import { execa } from "execa";
import { codexEnv } from "../agents/codexArgs.js";
import { displayArgv } from "./draft.js";

/** One acceptance test's result. */
export interface TestResult {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  passed: boolean;
  /** The end of its combined output (the end is where failures are reported). */
  output: string;
  durationMs: number;
}

/** A verification's record: the revision it tested and each test's result. */
export interface VerificationRecord {
  revision: string;
  passed: boolean;
  results: TestResult[];
}

/** Runs acceptance tests (a port: tests may inject a fake). */
export type TestRunner = (cwd: string, tests: string[][], timeoutMs: number) => Promise<TestResult[]>;

const OUTPUT_LIMIT = 4000;

/**
 * Runs each test's argv in `cwd`, one after another: no shell (an argument is never parsed as
 * a command line), the environment without codexpi's secrets, stdin closed, and a wall-clock
 * limit. The test leads its own process group so that a timeout kills what it started too.
 */
export const runTests: TestRunner = async (cwd, tests, timeoutMs) => {
  const results: TestResult[] = [];
  for (const argv of tests) {
    const [file, ...args] = argv;
    const started = Date.now();
    if (!file) continue;
    const child = execa(file, args, { cwd, env: codexEnv(process.env), extendEnv: false, stdin: "ignore", all: true, reject: false, detached: true, shell: false, stripFinalNewline: false });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    const r = await child.finally(() => clearTimeout(timer));
    const exitCode = typeof r.exitCode === "number" ? r.exitCode : null;
    const output = `${String(r.all ?? "")}${r.failed && r.exitCode === undefined ? `\n${r.shortMessage}` : ""}`;
    results.push({
      command: displayArgv(argv),
      exitCode,
      timedOut,
      passed: !timedOut && exitCode === 0,
      output: output.length > OUTPUT_LIMIT ? `…${output.slice(-OUTPUT_LIMIT)}` : output,
      durationMs: Date.now() - started,
    });
  }
  return results;
};

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** What people (and the corrections prompt) read of a failed verification. */
export function failureSummary(results: TestResult[]): string {
  return results
    .filter((r) => !r.passed)
    .map((r) => `$ ${r.command}\n(exit ${r.timedOut ? "timeout" : (r.exitCode ?? "?")})\n${r.output.trim()}`)
    .join("\n\n");
}
