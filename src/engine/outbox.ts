import type { Kysely } from "kysely";
import { z } from "zod";
import type { DB } from "./schema.js";
import { announce } from "./wakeups.js";
import { FILE_REFUSALS } from "./files/index.js";

const turn = { conversationId: z.string(), queueId: z.string() };

/** An approval's events: which one, in which conversation (its card lives in that thread). */
const approvalEvent = <K extends string>(kind: K) =>
  z.object({ kind: z.literal(kind), conversationId: z.string(), approvalId: z.string() });

/**
 * Every domain event the engine emits, one zod schema per kind: the same schemas type the events
 * when they are emitted and parse the rows when they are read, so both ends agree on one shape.
 */
const eventSchemas = {
  "conversation.queued": z.object({ kind: z.literal("conversation.queued"), ...turn, position: z.number() }),
  "conversation.started": z.object({ kind: z.literal("conversation.started"), ...turn }),
  // A follow-up (queueId) sent into the running turn of its conversation instead of queueing.
  "conversation.steered": z.object({ kind: z.literal("conversation.steered"), ...turn }),
  "conversation.progress": z.object({
    kind: z.literal("conversation.progress"),
    ...turn,
    activity: z.string(),
  }),
  // Who stopped and what it stopped (absent from events written before the thread was told).
  "conversation.stopped": z.object({
    kind: z.literal("conversation.stopped"),
    conversationId: z.string(),
    by: z.string().nullable().optional(),
    stoppingRunning: z.number().optional(),
    cancelledQueued: z.number().optional(),
    cancelledDecisions: z.number().optional(),
  }),
  "conversation.finished": z.object({
    kind: z.literal("conversation.finished"),
    ...turn,
    status: z.enum(["done", "failed", "cancelled"]),
    errorCode: z.string().nullable(),
    messageId: z.string().nullable(),
  }),
  // The files a turn handed back (in the data directory, see engine/files), after its answer.
  "conversation.files": z.object({
    kind: z.literal("conversation.files"),
    ...turn,
    files: z.array(z.object({ name: z.string(), size: z.number() })),
    refused: z.array(
      z.object({ name: z.string(), reason: z.enum(FILE_REFUSALS), size: z.number().optional() }),
    ),
  }),
  // Connections a turn's egress proxy refused: told once per turn in its thread, after its answer.
  "conversation.egress_refused": z.object({
    kind: z.literal("conversation.egress_refused"),
    ...turn,
    project: z.string(),
    refused: z.array(z.object({ host: z.string(), port: z.number(), reason: z.string() })),
  }),
  "agent.outcome": z.object({
    kind: z.literal("agent.outcome"),
    ...turn,
    status: z.string(),
    markers: z.array(z.string()),
  }),
  "decision.opened": z.object({
    kind: z.literal("decision.opened"),
    conversationId: z.string(),
    decisionId: z.string(),
  }),
  // Due a short while after the card (the notifier waits, durably): the DM telling its person a
  // decision awaits, unless answered by then or they are active in its thread. A key of its own:
  // its wait never holds the conversation's other events back.
  "decision.reminder": z.object({
    kind: z.literal("decision.reminder"),
    conversationId: z.string(),
    decisionId: z.string(),
  }),
  "decision.answered": z.object({
    kind: z.literal("decision.answered"),
    conversationId: z.string(),
    decisionId: z.string(),
  }),
  "decision.cancelled": z.object({
    kind: z.literal("decision.cancelled"),
    conversationId: z.string(),
    decisionId: z.string(),
  }),
  "approval.requested": approvalEvent("approval.requested"),
  "approval.answered": approvalEvent("approval.answered"),
  "approval.expired": approvalEvent("approval.expired"),
  "approval.abandoned": approvalEvent("approval.abandoned"),
  "incident.opened": z.object({
    kind: z.literal("incident.opened"),
    incidentId: z.string(),
    status: z.string(),
  }),
  "incident.updated": z.object({
    kind: z.literal("incident.updated"),
    incidentId: z.string(),
    status: z.string(),
  }),
  "specialist.updated": z.object({
    kind: z.literal("specialist.updated"),
    specialistId: z.string(),
    status: z.string(),
  }),
  "delegation.updated": z.object({
    kind: z.literal("delegation.updated"),
    delegationId: z.string(),
    status: z.string(),
  }),
  "orchestration.updated": z.object({
    kind: z.literal("orchestration.updated"),
    orchestrationId: z.string(),
    status: z.string(),
  }),
  /** A lane's state changed (merged, a conflict, pushed, a pull request, discarded): its card is redrawn. */
  "lane.updated": z.object({ kind: z.literal("lane.updated"), conversationId: z.string() }),
  "run.updated": z.object({
    kind: z.literal("run.updated"),
    runId: z.string(),
    status: z.string(),
    stage: z.string(),
  }),
  "run.verdict": z.object({
    kind: z.literal("run.verdict"),
    runId: z.string(),
    stepId: z.string().nullable(),
    decision: z.string(),
    feedback: z.string(),
  }),
  /** A budget was found reached in its period (issue 21): one event per admin, once per period. */
  "budget.reached": z.object({
    kind: z.literal("budget.reached"),
    admin: z.string(),
    scope: z.enum(["project", "user"]),
    name: z.string(),
    period: z.enum(["daily", "monthly"]),
    budget: z.number(),
    used: z.number(),
    resetsAt: z.number(),
    periodStart: z.number(),
  }),
  // A schedule's firing skipped (refused: rights, policy, budget): said in the schedule's channel.
  "schedule.skipped": z.object({
    kind: z.literal("schedule.skipped"),
    scheduleId: z.string(),
    code: z.string(),
    reason: z.string(),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
  // An agent's CODEXPI_REMEMBER made a proposal: its card (Keep, Edit, Discard) in the thread.
  "memory.proposed": z.object({
    kind: z.literal("memory.proposed"),
    conversationId: z.string(),
    noteId: z.string(),
  }),
  // A proposal was kept, edited, discarded (or its note forgotten): its card is redrawn.
  "memory.updated": z.object({
    kind: z.literal("memory.updated"),
    conversationId: z.string(),
    noteId: z.string(),
  }),
  // A schedule paused because its creator lost the project: its creator is told by DM.
  "schedule.paused": z.object({
    kind: z.literal("schedule.paused"),
    scheduleId: z.string(),
    userId: z.string(),
  }),
} as const;

/** The kind of a domain event. */
export type EventKind = keyof typeof eventSchemas;

/** The event of one kind. */
export type EventOf<K extends EventKind> = z.infer<(typeof eventSchemas)[K]>;

/**
 * Domain events the engine emits. They are written in the same transaction as the state change
 * that causes them; the Slack notifier (and anything else) consumes them from the outbox table.
 */
export type DomainEvent = { [K in EventKind]: EventOf<K> }[EventKind];

/** Every kind, in declaration order (tests walk them all). */
export const EVENT_KINDS = Object.keys(eventSchemas) as EventKind[];

/**
 * The aggregate each kind belongs to: its events are delivered in order (one Slack thread each).
 * Decisions go with their conversation: the card follows the answer that asked it. Approvals too:
 * their cards belong to the turn's thread.
 */
const aggregateOf: { [K in EventKind]: (e: EventOf<K>) => string } = {
  "conversation.queued": (e) => `conversation:${e.conversationId}`,
  "conversation.started": (e) => `conversation:${e.conversationId}`,
  "conversation.steered": (e) => `conversation:${e.conversationId}`,
  "conversation.progress": (e) => `conversation:${e.conversationId}`,
  "conversation.stopped": (e) => `conversation:${e.conversationId}`,
  "conversation.finished": (e) => `conversation:${e.conversationId}`,
  "conversation.files": (e) => `conversation:${e.conversationId}`,
  "conversation.egress_refused": (e) => `conversation:${e.conversationId}`,
  "agent.outcome": (e) => `conversation:${e.conversationId}`,
  "decision.opened": (e) => `conversation:${e.conversationId}`,
  "decision.reminder": (e) => `decision-reminder:${e.decisionId}`,
  "decision.answered": (e) => `conversation:${e.conversationId}`,
  "decision.cancelled": (e) => `conversation:${e.conversationId}`,
  "approval.requested": (e) => `conversation:${e.conversationId}`,
  "approval.answered": (e) => `conversation:${e.conversationId}`,
  "approval.expired": (e) => `conversation:${e.conversationId}`,
  "approval.abandoned": (e) => `conversation:${e.conversationId}`,
  "incident.opened": (e) => `incident:${e.incidentId}`,
  "incident.updated": (e) => `incident:${e.incidentId}`,
  "specialist.updated": (e) => `specialist:${e.specialistId}`,
  "delegation.updated": (e) => `delegation:${e.delegationId}`,
  "orchestration.updated": (e) => `orchestration:${e.orchestrationId}`,
  // A lane's card belongs to its conversation's thread, after the turn that changed it.
  "lane.updated": (e) => `conversation:${e.conversationId}`,
  "run.updated": (e) => `run:${e.runId}`,
  "run.verdict": (e) => `run:${e.runId}`,
  "budget.reached": (e) => `budget:${e.admin}`,
  "schedule.skipped": (e) => `schedule:${e.scheduleId}`,
  "schedule.paused": (e) => `schedule:${e.scheduleId}`,
  // A proposal's card follows the answer that proposed it, in its conversation's thread.
  "memory.proposed": (e) => `conversation:${e.conversationId}`,
  "memory.updated": (e) => `conversation:${e.conversationId}`,
};

/** The ordering key of an event (`aggregate:id`). */
export function orderingKeyOf(e: DomainEvent): string {
  return (aggregateOf[e.kind] as (e: DomainEvent) => string)(e);
}

/** Reads an outbox row's kind and payload as a domain event; throws (zod) when it is malformed. */
export function parseEvent(kind: string, payload: string): DomainEvent {
  if (!Object.hasOwn(eventSchemas, kind)) throw new Error(`unknown event kind: ${kind}`);
  const event = eventSchemas[kind as EventKind].parse(JSON.parse(payload));
  if (event.kind !== kind) throw new Error(`event kind ${event.kind} in a row of kind ${kind}`);
  return event;
}

/** Appends events to the outbox; call it with the transaction that made the change. */
export async function emit(trx: Kysely<DB>, now: number, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto("outbox")
    .values(
      events.map((e) => ({
        kind: e.kind,
        payload: JSON.stringify(e),
        ordering_key: orderingKeyOf(e),
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();
  await announce(trx, "outbox"); // delivered with the commit (PostgreSQL), so the notifier wakes
}
