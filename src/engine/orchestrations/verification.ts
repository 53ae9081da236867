import { execa } from "execa";
import { testCommandEnvironment } from "../isolation/index.js";
import { findBwrap, jailArgs, workspaceMounts } from "../isolation/index.js";
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

/** How acceptance tests are isolated: jailed (default) unless the operator turned the jail off. */
export interface TestIsolation {
  jail: "bwrap" | "off";
  /** Object stores the workspace may borrow from (the project's `.git/objects` for a shared clone). */
  allowedAlternates?: readonly string[];
}

/** Runs acceptance tests (a port: tests may inject a fake). */
export type TestRunner = (
  cwd: string,
  tests: string[][],
  timeoutMs: number,
  isolation?: TestIsolation,
) => Promise<TestResult[]>;

const OUTPUT_LIMIT = 4000;

/**
 * Runs each test's argv in `cwd`, one after another, each in its own jail: it sees the workspace
 * (read-write), the system read-only, a private /tmp and /proc, no network and no codexpi data
 * or process; no shell (an argument is never parsed as a command line), an allow-listed
 * environment with no secret, stdin closed, and a wall-clock limit. The jail leads its own process
 * group and its PID namespace dies with it, so a timeout kills what the test started too.
 */
export const runTests: TestRunner = async (cwd, tests, timeoutMs, isolation = { jail: "bwrap" }) => {
  const results: TestResult[] = [];
  const bwrap = isolation.jail === "off" ? null : findBwrap();
  for (const argv of tests) {
    const [first] = argv;
    const started = Date.now();
    if (!first) continue;
    if (isolation.jail !== "off" && !bwrap) {
      results.push({
        command: displayArgv(argv),
        exitCode: null,
        timedOut: false,
        passed: false,
        output: "bubblewrap (bwrap) is not installed: acceptance tests run only inside the jail",
        durationMs: 0,
      });
      continue;
    }
    const env = testCommandEnvironment(process.env, { HOME: "/tmp" });
    const [file, ...args] = bwrap
      ? [
          bwrap,
          ...jailArgs(
            {
              mounts: workspaceMounts(cwd, true, isolation.allowedAlternates ?? []),
              cwd,
              network: false,
              nestedSandbox: false,
            },
            argv,
          ),
        ]
      : argv;
    const child = execa(file as string, args, {
      cwd,
      env,
      extendEnv: false,
      stdin: "ignore",
      all: true,
      reject: false,
      detached: true,
      shell: false,
      stripFinalNewline: false,
    });
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
