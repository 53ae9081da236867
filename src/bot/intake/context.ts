import { AsyncLocalStorage } from "node:async_hooks";

/** What the listener's work may ask of the request it is serving (see intake.ts). */
export interface IntakeWork {
  id: number;
  key: string;
  receivedAt: number;
  /** Work scheduled after the ack and not finished yet. */
  pending: number;
  /**
   * Takes the request's key in the main database once; false when it was consumed before, unless
   * the request is replayed after its consumer died half-way and the work is `replaySafe`.
   */
  claim(replaySafe: boolean): Promise<boolean>;
  /** Set by a listener that cannot serve the request yet (a reply whose thread is unknown). */
  deferred: boolean;
  /** Whether the request may still wait (false once its bound has passed). */
  mayWait: boolean;
  /** Called when the last piece of work ends (or at once when none was scheduled). */
  settle(): void;
}

const storage = new AsyncLocalStorage<IntakeWork>();

/** The request the current code serves, if it came through the intake. */
export function currentIntake(): IntakeWork | undefined {
  return storage.getStore();
}

/**
 * The key of the Slack request being served, for the engine calls that must happen once per
 * request (a prompt): a request replayed after its consumer died half-way then queues nothing new.
 */
export function currentRequest(): { requestKey: string | null } {
  return { requestKey: storage.getStore()?.key ?? null };
}

/** Runs `fn` as serving `work` (its continuations too). */
export function withIntake<T>(work: IntakeWork | undefined, fn: () => T): T {
  return work ? storage.run(work, fn) : storage.exit(fn);
}

/**
 * Asks that the request being served waits for its thread to become known: true when it will be
 * tried again later, false when it has waited long enough (the caller then tells the person).
 */
export function waitForThread(): boolean {
  const work = storage.getStore();
  if (!work?.mayWait) return false;
  work.deferred = true;
  return true;
}
