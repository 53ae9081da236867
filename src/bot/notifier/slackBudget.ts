/**
 * One budget of Slack calls per workspace, shared by every progress renderer (the edited status
 * message, streams, interim posts): a token bucket per team id and Slack rate tier. Pure apart from
 * the injected clock, so that its guarantee is tested without Slack.
 *
 * A bucket of capacity C refilled at (limit − C) per minute never lets more than `limit` calls
 * through in any 60-second window (C at once, then the refill): the tier holds however calls
 * bunch up. A caller that finds the budget short gets how long to wait; it coalesces (renders the
 * newest state later), it never queues calls. Calls that change a state (a stream's stop before
 * the answer, the status message's final edit) are `urgent`: the others leave them half the
 * burst, so a busy minute of progress never holds back the end of a turn.
 */

/** Slack's rate tiers of the methods progress renderers call, in calls per minute per workspace. */
export const TIER_PER_MINUTE = {
  tier2: 20,
  tier3: 50,
  tier4: 100,
  /** chat.postMessage: about one message per second per channel. */
  post: 60,
} as const;

/** A rate class: one of Slack's tiers, or the per-channel posting limit. */
export type RateClass = keyof typeof TIER_PER_MINUTE;

const METHOD_CLASS = {
  "chat.startStream": "tier2",
  "chat.stopStream": "tier2",
  "chat.appendStream": "tier4",
  "chat.update": "tier3",
  "chat.postMessage": "post",
} as const satisfies Record<string, RateClass>;

/** A Slack method whose calls are budgeted. */
export type BudgetedMethod = keyof typeof METHOD_CLASS;

/** The rate class a method's calls count against. */
export const rateClassOf = (method: BudgetedMethod): RateClass => METHOD_CLASS[method];

const MINUTE_MS = 60_000;

interface Bucket {
  tokens: number;
  at: number;
  pausedUntil: number;
}

/** Capacity and refill of a class: a tenth of the limit as burst, the rest spread over the minute. */
function shapeOf(limit: number): { capacity: number; perMs: number } {
  const capacity = Math.max(1, Math.floor(limit / 10));
  return { capacity, perMs: (limit - capacity) / MINUTE_MS };
}

/** Token buckets keyed by workspace, rate class and (for posts) channel. */
export class SlackBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number,
    private readonly limits: Record<RateClass, number> = TIER_PER_MINUTE,
  ) {}

  /**
   * Takes one call of `method` for workspace `team` (and `channel`, for posts): 0 when the call may
   * go now (its token is spent), else the milliseconds to wait (nothing is spent).
   */
  take(team: string, method: BudgetedMethod, channel?: string, urgent = false): number {
    const { bucket, perMs, capacity } = this.bucketOf(team, method, channel);
    const now = this.now();
    if (now < bucket.pausedUntil) return bucket.pausedUntil - now;
    const needed = 1 + (urgent ? 0 : Math.floor(capacity / 2));
    if (bucket.tokens >= needed) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((needed - bucket.tokens) / perMs));
  }

  /**
   * Slack answered 429: nothing of this method's class goes before `retryAfterMs`. The bucket
   * neither refills meanwhile nor loses what it holds: Slack's window has moved on by then.
   */
  pause(team: string, method: BudgetedMethod, retryAfterMs: number, channel?: string): void {
    const { bucket } = this.bucketOf(team, method, channel);
    bucket.pausedUntil = Math.max(bucket.pausedUntil, this.now() + retryAfterMs);
    bucket.at = bucket.pausedUntil;
  }

  private bucketOf(team: string, method: BudgetedMethod, channel?: string) {
    const cls = rateClassOf(method);
    const { capacity, perMs } = shapeOf(this.limits[cls]);
    const key = cls === "post" ? `${team}:${cls}:${channel ?? ""}` : `${team}:${cls}`;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, at: now, pausedUntil: 0 };
      this.buckets.set(key, bucket);
    }
    // Refill since the last look; a clock that went back refills nothing.
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * perMs);
    bucket.at = Math.max(bucket.at, now);
    return { bucket, perMs, capacity };
  }
}
