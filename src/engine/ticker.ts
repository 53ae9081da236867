import cron from "node-cron";
import type { Logger } from "pino";
import type { TickResult } from "./kernel.js";

/** What the ticker drives: the composition root's tick and its lease. */
export interface Tickable {
  tick(): Promise<TickResult>;
  releaseLease(): Promise<void>;
}

/** A running schedule of ticks; stop() waits for a tick under way, then releases the lease. */
export interface Ticker {
  stop(): Promise<void>;
}

/**
 * Drives `engine.tick()` from a node-cron expression (six fields allow seconds). noOverlap: a
 * slow tick is never run twice at once; a failing tick is logged and the next one tries again.
 */
export function startTicker(engine: Tickable, expression: string, logger: Logger): Ticker {
  if (!cron.validate(expression)) throw new Error(`CODEXPI_TICK: invalid cron expression "${expression}"`);
  // The tick under way, if any: stop() waits for it, or it could renew the lease just released.
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      const result = await engine.tick();
      if (result.state === "standby") logger.debug("tick: standby (another coordinator holds the lease)");
    } catch (err) {
      logger.error({ err }, "tick failed");
    }
  };
  const task = cron.schedule(
    expression,
    () => {
      running = tick();
      return running;
    },
    { noOverlap: true, name: "codexpi-tick" },
  );
  return {
    async stop() {
      await task.stop();
      await task.destroy();
      await running; // a tick that started before the stop ends before the lease is given up
      await engine.releaseLease();
    },
  };
}
