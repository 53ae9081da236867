import type { Kernel } from "../kernel.js";
import {
  laterPendingKinds,
  markDelivered,
  markFailed,
  pendingEvents,
  postpone,
  pruneDelivered,
  type MalformedEntry,
  type OutboxEntry,
} from "../outboxQueue.js";

/**
 * The engine's events as a front end consumes them (the outbox): what is pending, in order, and
 * what became of each delivery. Only the coordinator's notifier reads them.
 */
export interface EventsApi {
  /** The pending events, oldest first (a malformed row is returned apart, to be marked failed). */
  pending(limit?: number): Promise<{ entries: OutboxEntry[]; malformed: MalformedEntry[] }>;
  /** The kinds of the pending events after `afterId` on the same ordering key (a later state supersedes). */
  laterPendingKinds(
    orderingKey: string,
    afterId: number,
    limit?: number,
  ): Promise<Array<{ id: number; kind: string }>>;
  /** Marks events delivered at `now` (the consumer's clock). */
  delivered(ids: number[], now: number): Promise<void>;
  /** Tries again at `at` (epoch ms), counting the failure when there was one. */
  postpone(id: number, at: number, failure?: { attempts?: number; lastError: string }): Promise<void>;
  failed(id: number, attempts: number, error: string, now: number): Promise<void>;
  /** Forgets delivered events older than `before` (epoch ms). */
  pruneDelivered(before: number): Promise<void>;
}

export function eventsApi(kernel: Kernel): EventsApi {
  const { db } = kernel;
  return {
    pending: (limit) => pendingEvents(db, limit),
    laterPendingKinds: (orderingKey, afterId, limit) => laterPendingKinds(db, orderingKey, afterId, limit),
    delivered: (ids, now) => markDelivered(db, ids, now),
    postpone: (id, at, failure) => postpone(db, id, at, failure),
    failed: (id, attempts, error, now) => markFailed(db, id, attempts, error, now),
    pruneDelivered: (before) => pruneDelivered(db, before),
  };
}
