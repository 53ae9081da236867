/** One request as it was received: its Slack key, kind, raw payload and where it stands. */
export interface IntakeRow {
  id: number;
  key: string;
  kind: string;
  body: unknown;
  receivedAt: number;
  status: "pending" | "waiting" | "done";
  attempts: number;
}

/** A request as both journals store it (columns of the same names). */
export interface IntakeRecord {
  id: number;
  key: string;
  kind: string;
  body: string;
  received_at: number;
  status: IntakeRow["status"];
  attempts: number;
}

/** A stored request as the intake reads it (its payload parsed). */
export const toIntakeRow = (r: IntakeRecord): IntakeRow => ({
  id: r.id,
  key: r.key,
  kind: r.kind,
  body: JSON.parse(r.body) as unknown,
  receivedAt: r.received_at,
  status: r.status,
  attempts: r.attempts,
});

type Awaitable<T> = T | Promise<T>;

/** A request to record: its Slack key, kind, raw payload and when it was received. */
export interface IntakeRequest {
  key: string;
  kind: string;
  body: unknown;
  receivedAt: number;
}

/**
 * Where acked Slack requests are kept until consumed. Two kinds:
 * - the bot's own file (../intake/store.ts), on SQLite: written synchronously, never behind another
 *   process's lock; only a later life of the same instance replays what it left (`unfinished`);
 * - the shared journal (sharedIntake.ts), on PostgreSQL: every instance writes to the main
 *   database, and a surviving instance adopts what a dead one acked and never consumed (`maintain`).
 */
export interface IntakeJournal {
  /**
   * Writes requests in one durable commit (fsynced: they survive a power loss), resolving only
   * once it is durable; each one's id, or null when its key was recorded before (a Slack retry, a
   * replay, or an earlier request of the same batch).
   */
  recordAll(requests: readonly IntakeRequest[]): Promise<Array<number | null>>;
  /** Marks a request consumed: it is never replayed. */
  done(id: number, now: number): Awaitable<void>;
  /** Puts a request aside for `firstDelayMs`, doubled at each try up to `maxDelayMs`. */
  defer(id: number, now: number, firstDelayMs: number, maxDelayMs: number): Awaitable<void>;
  /** Requests an earlier life of this instance recorded and never consumed, oldest first (at start). */
  unfinished(): Awaitable<IntakeRow[]>;
  /**
   * Keeps this instance's hold on its requests alive, and takes over the unconsumed requests of
   * instances that are gone: the pending ones are returned (to be consumed now), the put-aside
   * ones come back through `due`. Called at start, before any request is recorded, then often.
   */
  maintain(now: number): Awaitable<IntakeRow[]>;
  /** This instance's requests put aside whose time has come, oldest first. */
  due(now: number): Awaitable<IntakeRow[]>;
  /**
   * Records signed requests' keys in one commit (not fsynced: see ../intake/store.ts); for each,
   * false when it was recorded before (a replay), or earlier in the same batch.
   */
  firstSignatures(keys: readonly string[], now: number): Awaitable<boolean[]>;
  /** Forgets the signatures seen before `before`. */
  forgetSignatures(before: number): Awaitable<void>;
  /** Forgets the requests consumed before `before`. */
  forgetDone(before: number): Awaitable<void>;
  /** Closes it (the shared journal gives its hold up: a survivor adopts what is left at once). */
  close(): Awaitable<void>;
}
