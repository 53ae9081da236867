import { afterEach, describe, expect, it } from "vitest";
import { EVENT_KINDS, emit, orderingKeyOf, type EventKind, type EventOf } from "../../src/engine/outbox.js";
import { markFailed, pendingEvents } from "../../src/engine/outboxQueue.js";
import { testEngine } from "../support/engine.js";

/** One event of every kind (a kind added without a sample fails to compile here). */
const SAMPLES: { [K in EventKind]: EventOf<K> } = {
  "conversation.queued": { kind: "conversation.queued", conversationId: "c1", queueId: "q1", position: 2 },
  "conversation.started": { kind: "conversation.started", conversationId: "c1", queueId: "q1" },
  "conversation.steered": { kind: "conversation.steered", conversationId: "c1", queueId: "q2" },
  "conversation.progress": {
    kind: "conversation.progress",
    conversationId: "c1",
    queueId: "q1",
    activity: "reading",
  },
  "conversation.stopped": { kind: "conversation.stopped", conversationId: "c1" },
  "conversation.finished": {
    kind: "conversation.finished",
    conversationId: "c1",
    queueId: "q1",
    status: "failed",
    errorCode: "codex_failed",
    messageId: null,
  },
  "conversation.files": {
    kind: "conversation.files",
    conversationId: "c1",
    queueId: "q1",
    files: [{ name: "report.txt", size: 12 }],
    refused: [{ name: "big.bin", reason: "too_large", size: 99 }],
  },
  "conversation.egress_refused": {
    kind: "conversation.egress_refused",
    conversationId: "c1",
    queueId: "q1",
    project: "demo",
    refused: [{ host: "evil.example", port: 443, reason: "not_listed" }],
  },
  "agent.outcome": {
    kind: "agent.outcome",
    conversationId: "c1",
    queueId: "q1",
    status: "done",
    markers: ["decision"],
  },
  "decision.opened": { kind: "decision.opened", conversationId: "c1", decisionId: "d1" },
  "decision.reminder": { kind: "decision.reminder", conversationId: "c1", decisionId: "d1" },
  "decision.answered": { kind: "decision.answered", conversationId: "c1", decisionId: "d1" },
  "decision.cancelled": { kind: "decision.cancelled", conversationId: "c1", decisionId: "d1" },
  "approval.requested": { kind: "approval.requested", conversationId: "c1", approvalId: "a1" },
  "approval.answered": { kind: "approval.answered", conversationId: "c1", approvalId: "a1" },
  "approval.expired": { kind: "approval.expired", conversationId: "c1", approvalId: "a1" },
  "approval.abandoned": { kind: "approval.abandoned", conversationId: "c1", approvalId: "a1" },
  "incident.opened": { kind: "incident.opened", incidentId: "i1", status: "OPEN" },
  "incident.updated": { kind: "incident.updated", incidentId: "i1", status: "RESOLVED" },
  "specialist.updated": { kind: "specialist.updated", specialistId: "s1", status: "ACTIVE" },
  "delegation.updated": { kind: "delegation.updated", delegationId: "g1", status: "RUNNING" },
  "orchestration.updated": { kind: "orchestration.updated", orchestrationId: "o1", status: "DRAFT" },
  "lane.updated": { kind: "lane.updated", conversationId: "c1" },
  "run.updated": { kind: "run.updated", runId: "r1", status: "RUNNING", stage: "PLAN_REVIEW" },
  "run.verdict": { kind: "run.verdict", runId: "r1", stepId: null, decision: "approve", feedback: "ok" },
  "budget.reached": {
    kind: "budget.reached",
    admin: "UADMIN",
    scope: "project",
    name: "demo",
    period: "daily",
    budget: 100,
    used: 120,
    resetsAt: 86_400_000,
    periodStart: 0,
  },
  "schedule.skipped": {
    kind: "schedule.skipped",
    scheduleId: "s1",
    code: "invalid",
    reason: "request_model_not_allowed",
    params: { model: "nope", n: 1 },
  },
  "schedule.paused": { kind: "schedule.paused", scheduleId: "s1", userId: "U1" },
  "memory.proposed": { kind: "memory.proposed", conversationId: "c1", noteId: "n1" },
  "memory.updated": { kind: "memory.updated", conversationId: "c1", noteId: "n1" },
};

const AGGREGATES: Record<EventKind, string> = {
  "conversation.queued": "conversation:c1",
  "conversation.started": "conversation:c1",
  "conversation.steered": "conversation:c1",
  "conversation.progress": "conversation:c1",
  "conversation.stopped": "conversation:c1",
  "conversation.finished": "conversation:c1",
  "conversation.files": "conversation:c1",
  "conversation.egress_refused": "conversation:c1",
  "agent.outcome": "conversation:c1",
  "decision.opened": "conversation:c1",
  "decision.reminder": "decision-reminder:d1",
  "decision.answered": "conversation:c1",
  "decision.cancelled": "conversation:c1",
  "approval.requested": "conversation:c1",
  "approval.answered": "conversation:c1",
  "approval.expired": "conversation:c1",
  "approval.abandoned": "conversation:c1",
  "incident.opened": "incident:i1",
  "incident.updated": "incident:i1",
  "specialist.updated": "specialist:s1",
  "delegation.updated": "delegation:g1",
  "orchestration.updated": "orchestration:o1",
  "run.updated": "run:r1",
  "run.verdict": "run:r1",
  "lane.updated": "conversation:c1",
  "budget.reached": "budget:UADMIN",
  "schedule.skipped": "schedule:s1",
  "schedule.paused": "schedule:s1",
  "memory.proposed": "conversation:c1",
  "memory.updated": "conversation:c1",
};

describe("outbox (typed both ways)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("every kind written by emit reads back as the same event, with its aggregate's ordering key", async () => {
    env = await testEngine();
    await env.db.deleteFrom("outbox").execute();
    await emit(env.db, env.clock.now(), ...EVENT_KINDS.map((k) => SAMPLES[k]));
    const { entries, malformed } = await pendingEvents(env.db);
    expect(malformed).toEqual([]);
    expect(entries.map((e) => e.event)).toEqual(EVENT_KINDS.map((k) => SAMPLES[k]));
    expect(entries.map((e) => e.orderingKey)).toEqual(EVENT_KINDS.map((k) => AGGREGATES[k]));
    expect(EVENT_KINDS.map((k) => orderingKeyOf(SAMPLES[k]))).toEqual(EVENT_KINDS.map((k) => AGGREGATES[k]));
  });

  it("a malformed row (bad JSON, a missing field, an unknown kind, a kind the payload contradicts) is set apart, the others still read", async () => {
    env = await testEngine();
    await env.db.deleteFrom("outbox").execute();
    const now = env.clock.now();
    await env.db
      .insertInto("outbox")
      .values([
        {
          kind: "run.updated",
          payload: "{not json",
          ordering_key: "run:r1",
          next_attempt_at: now,
          created_at: now,
        },
        {
          kind: "run.updated",
          payload: JSON.stringify({ kind: "run.updated", runId: "r1" }),
          ordering_key: "run:r1",
          next_attempt_at: now,
          created_at: now,
        },
        {
          kind: "run.exploded",
          payload: JSON.stringify({ kind: "run.exploded", runId: "r1" }),
          ordering_key: "run:r1",
          next_attempt_at: now,
          created_at: now,
        },
        {
          kind: "run.updated",
          payload: JSON.stringify(SAMPLES["run.verdict"]),
          ordering_key: "run:r1",
          next_attempt_at: now,
          created_at: now,
        },
      ])
      .execute();
    await emit(env.db, now, SAMPLES["incident.opened"]);
    const { entries, malformed } = await pendingEvents(env.db);
    expect(malformed.map((m) => m.kind)).toEqual([
      "run.updated",
      "run.updated",
      "run.exploded",
      "run.updated",
    ]);
    expect(entries.map((e) => e.event)).toEqual([SAMPLES["incident.opened"]]);
    await markFailed(env.db, malformed[0]!.id, 1, "malformed", now);
    expect((await pendingEvents(env.db)).malformed).toHaveLength(3);
  });
});
