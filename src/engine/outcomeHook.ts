import type { Kysely } from "kysely";
import type { Clock } from "./clock.js";
import { emit } from "./outbox.js";
import { findMarkers, type Markers } from "./protocol/index.js";
import type { DB } from "./schema.js";

// The outcome hook is a port of the kernel: the composition root binds the reactors (coordination,
// approvals, the announcement) and the conversations' finish calls it, so neither imports the other.

/** What the outcome hook tells its reactors. */
export interface AgentOutcome {
  conversationId: string;
  queueId: string;
  status: "done" | "failed" | "cancelled";
  content: string | null;
  error: string | null;
  markers: Markers;
}

/**
 * Reacts to an agent's outcome inside the transaction that records it (decisions, delegations,
 * incidents register here). Must be idempotent: the hook may run twice for one item.
 */
export type OutcomeReactor = (trx: Kysely<DB>, outcome: AgentOutcome, clock: Clock) => Promise<void>;

/** Announces every outcome with the markers it carried, for listeners outside the engine. */
export const announceOutcome: OutcomeReactor = async (trx, o, clock) => {
  const kinds = Object.entries(o.markers)
    .filter(([, v]) => v !== null)
    .map(([k]) => k);
  await emit(trx, clock.now(), {
    kind: "agent.outcome",
    conversationId: o.conversationId,
    queueId: o.queueId,
    status: o.status,
    markers: kinds,
  });
};

/** The outcome hook (SPEC: recordAgentOutcome), bound to the reactors the engine was composed with. */
export function createOutcomeHook(reactors: OutcomeReactor[], clock: Clock) {
  return async function recordAgentOutcome(
    trx: Kysely<DB>,
    conversationId: string,
    queueId: string,
    status: AgentOutcome["status"],
    content: string | null,
    error: string | null,
  ): Promise<void> {
    const markers = findMarkers(content ?? "");
    for (const react of reactors)
      await react(trx, { conversationId, queueId, status, content, error, markers }, clock);
  };
}

/**
 * Closes what a stopped conversation left waiting beside its own items (its open decisions: nobody
 * waits for their answer any more), inside the stop's transaction; answers how many it closed.
 * Coordination provides it and the composition root binds it, as for the outcome reactors.
 */
export type StopReactor = (trx: Kysely<DB>, now: number, conversationId: string) => Promise<number>;

/** The bound outcome hook's type. */
export type RecordAgentOutcome = ReturnType<typeof createOutcomeHook>;
