import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * Domain events the engine emits. They are written in the same transaction as the state change
 * that causes them; the Slack notifier (and anything else) consumes them from the outbox table.
 */
export type DomainEvent =
  | { kind: "conversation.queued"; conversationId: string; queueId: string; position: number }
  | { kind: "conversation.started"; conversationId: string; queueId: string }
  | { kind: "conversation.progress"; conversationId: string; queueId: string; activity: string }
  | { kind: "conversation.stopped"; conversationId: string }
  | {
      kind: "conversation.finished";
      conversationId: string;
      queueId: string;
      status: "done" | "failed" | "cancelled";
      errorCode: string | null;
      messageId: string | null;
    }
  | { kind: "agent.outcome"; conversationId: string; queueId: string; status: string; markers: string[] }
  | { kind: "decision.opened" | "decision.answered" | "decision.cancelled"; conversationId: string; decisionId: string }
  | { kind: "incident.opened" | "incident.updated"; incidentId: string; status: string }
  | { kind: "specialist.updated"; specialistId: string; status: string }
  | { kind: "delegation.updated"; delegationId: string; status: string }
  | { kind: "orchestration.updated"; orchestrationId: string; status: string }
  | { kind: "run.updated"; runId: string; status: string; stage: string }
  | { kind: "run.verdict"; runId: string; stepId: string | null; decision: string; feedback: string };

/** Appends events to the outbox; call it with the transaction that made the change. */
export async function emit(trx: Kysely<DB>, now: number, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto("outbox")
    .values(
      events.map((e) => ({
        kind: e.kind,
        payload: JSON.stringify(e),
        // Events of one conversation are delivered in order (one Slack thread).
        // A run's verdicts and updates too (its own Slack thread).
        ordering_key: "conversationId" in e ? `conversation:${e.conversationId}` : "runId" in e ? `run:${e.runId}` : null,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();
}
