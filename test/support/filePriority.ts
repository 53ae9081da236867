import os from "node:os";

/**
 * The CPU priority of the worker running this file, and so of every process the file starts
 * (serve, `codexpi worker`, Codex, git inherit it). vitest.config.ts runs the files that bound a
 * latency (test/support/latencyFiles.ts) beside the others: those others run at a lower priority
 * (CODEXPI_TEST_NICE=10), so that when the two cores are contended what a latency file times is
 * its own code, not the load of the files around it. A worker is reused from file to file
 * (isolate: false): raising it back to 0 for a latency file needs root (CAP_SYS_NICE); without
 * it the file runs at the worker's priority, as every file would without this setup.
 */
const wanted = Number(process.env.CODEXPI_TEST_NICE ?? "0");
if (Number.isInteger(wanted) && os.getPriority() !== wanted) {
  try {
    os.setPriority(wanted);
  } catch {
    // Not root: a priority cannot be raised. The file runs as it would have without the setup.
  }
}
