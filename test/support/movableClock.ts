/**
 * Real time plus an offset a test moves forward: a bot's clock for schedules, so that a
 * schedule's next minute comes at once instead of in real minutes, while timers still run.
 */
export function movableClock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    /** Moves the clock to `at` plus a second (a tick a second late), if that is ahead. */
    reach(at: number) {
      offset = Math.max(offset, at + 1_000 - Date.now());
    },
    advance(ms: number) {
      offset += ms;
    },
  };
}
