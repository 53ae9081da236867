import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { LATENCY_FILES } from "./latencyFiles.js";

/**
 * The CPU priority of the worker running this file, and so of every process the file starts
 * (serve, `codexpi worker`, Codex, git inherit it). The files that bound a latency
 * (test/support/latencyFiles.ts) run beside the others at a higher priority: their project says
 * which (CODEXPI_TEST_LATENCY_NICE, -5 when they run beside the others, vitest.config.ts); every
 * other file runs at 0, the default. When the two cores are contended, what a latency file times
 * is then its own code, not the load of the files around it.
 *
 * It is chosen per file, not per project: a worker runs file after file of its project (vitest
 * keeps a worker only while the next file in the queue is of the same project), so one project
 * for latency and other files lets a worker load the app's modules once for many files.
 * Raising a priority needs root (CAP_SYS_NICE; CI and the dev machines run as root); without it
 * the file runs at the default priority, as every file would without this setup. The others are
 * not lowered, so a file run alone on a machine shared with other work keeps its usual share.
 */
export function wantedPriority(testPath: string, env: NodeJS.ProcessEnv = process.env): number {
  const relative = path.relative(process.cwd(), testPath).split(path.sep).join("/");
  if (!LATENCY_FILES.includes(relative)) return 0;
  const asked = Number(env.CODEXPI_TEST_LATENCY_NICE ?? "0");
  return Number.isInteger(asked) ? asked : 0;
}

function setPriority(wanted: number): void {
  if (os.getPriority() === wanted) return;
  try {
    os.setPriority(wanted);
  } catch {
    // Not allowed to raise it: the file runs at the priority it has.
  }
}

beforeAll(() => setPriority(wantedPriority(String(expect.getState().testPath))));
// The next file of this worker starts at the default again (and a later beforeAll raises it).
afterAll(() => setPriority(0));
