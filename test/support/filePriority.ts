import os from "node:os";

/**
 * The CPU priority of the worker running this file, and so of every process the file starts
 * (serve, `codexpi worker`, Codex, git inherit it). vitest.config.ts runs the files that bound a
 * latency (test/support/latencyFiles.ts) beside the others, at a higher priority
 * (CODEXPI_TEST_NICE=-5; the others at 0, the default): when the two cores are contended, what a
 * latency file times is its own code, not the load of the files around it. Raising a priority
 * needs root (CAP_SYS_NICE; CI and the dev machines run as root); without it the file runs at the
 * default priority, as every file would without this setup. The others are not lowered, so a
 * file run alone on a machine shared with other work keeps its usual share.
 */
const wanted = Number(process.env.CODEXPI_TEST_NICE ?? "0");
if (Number.isInteger(wanted) && os.getPriority() !== wanted) {
  try {
    os.setPriority(wanted);
  } catch {
    // Not allowed to raise it: the file runs at the priority it has.
  }
}
