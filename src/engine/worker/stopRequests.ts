import { dialectOf, type Database } from "../database.js";
import { wakeupsOf } from "../wakeups.js";

const CANCEL_POLL_MS = 1_000;
/** On PostgreSQL a stop wakes the worker (NOTIFY): the poll is only the safety net there. */
const POSTGRES_CANCEL_POLL_MS = 5_000;

/** What may stop a running turn from outside: a person's cancel, or a signal to this process. */
export interface StopRequests {
  /** Aborted by either: the runner stops Codex's group and reports `cancelled`. */
  signal: AbortSignal;
  /** True when a signal came (SIGTERM, SIGINT): a shutdown, unless a cancel was also requested. */
  signalled(): boolean;
  /** Stops listening. */
  close(): void;
}

/**
 * Listens for what stops this item's turn: SIGTERM and SIGINT, and the item's cancel — a wake-up
 * (on PostgreSQL a stop arrives at once, NOTIFY on commit) and a poll of `cancel_requested_at` as the net.
 */
export function listenForStops(db: Database, queueId: string): StopRequests {
  const abort = new AbortController();
  let stopAsked = false; // a signal from outside: shutdown unless a cancel was requested
  const onSignal = () => {
    stopAsked = true;
    abort.abort();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const poll = setInterval(
    () => {
      cancelRequestedAt(db, queueId)
        .then((at) => at && abort.abort())
        .catch(() => undefined);
    },
    dialectOf(db) === "postgres" ? POSTGRES_CANCEL_POLL_MS : CANCEL_POLL_MS,
  );
  const offCancel = wakeupsOf(db).on("cancel", (id) => {
    if (id === queueId) abort.abort();
  });
  return {
    signal: abort.signal,
    signalled: () => stopAsked,
    close() {
      clearInterval(poll);
      offCancel();
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    },
  };
}

/** When a person asked to stop the item (null or undefined: nobody did). */
export async function cancelRequestedAt(db: Database, queueId: string) {
  const row = await db
    .selectFrom("prompt_queue")
    .select("cancel_requested_at")
    .where("id", "=", queueId)
    .executeTakeFirst();
  return row?.cancel_requested_at;
}
