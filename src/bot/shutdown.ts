import type { Logger } from "pino";

/** One step of shutting the bot down (stop the notifier, close the database, …). */
export interface ShutdownStep {
  name: string;
  run: () => unknown;
}

/** How long one shutdown step may take before it is given up on. */
const SHUTDOWN_STEP_MS = 5_000;

/**
 * Runs every step in order, each bounded by `timeoutMs`: a step that throws or hangs is logged and
 * the next one still runs, so shutdown always ends (a read-only database once made the ticker's
 * stop throw and left the process running). True when every step ended cleanly.
 */
export async function runShutdown(
  steps: ShutdownStep[],
  logger: Pick<Logger, "error">,
  timeoutMs = SHUTDOWN_STEP_MS,
): Promise<boolean> {
  let clean = true;
  for (const step of steps) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(step.run),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not end within ${timeoutMs} ms`)), timeoutMs);
          timer.unref();
        }),
      ]);
    } catch (err) {
      clean = false;
      logger.error({ err, step: step.name }, "shutdown step failed");
    } finally {
      clearTimeout(timer);
    }
  }
  return clean;
}
