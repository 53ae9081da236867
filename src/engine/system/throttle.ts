/** A throttle that delays the newest value: `push` writes at most once per window, never drops the last. */
export interface TrailingThrottle<T> {
  push(value: T): void;
  /** Writes a pending value now and stops the timer (the end of a turn). */
  flush(): void;
}

/**
 * Writes the first value at once, then at most one per `windowMs`: a value pushed inside the
 * window waits for its end, replacing any older one still waiting. The status therefore shows
 * the current activity, never the previous one (dropping until the next event left it one behind).
 */
export function trailingThrottle<T>(
  windowMs: number,
  write: (value: T) => void,
  now: () => number = Date.now,
): TrailingThrottle<T> {
  let last = Number.NEGATIVE_INFINITY;
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    last = now();
    write(value);
  };
  return {
    push(value) {
      pending = { value };
      if (timer) return;
      const wait = last + windowMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    flush() {
      if (timer) clearTimeout(timer);
      fire();
    },
  };
}
