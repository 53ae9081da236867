// Compiled by test/bot/rendererMap.test.ts (never run): the renderer map covers every event kind.
import type { Renderer, RendererMap } from "../../src/bot/notifier/renderer.js";

declare const conversations: Renderer<
  | "conversation.queued"
  | "conversation.started"
  | "conversation.progress"
  | "conversation.stopped"
  | "conversation.finished"
>;
declare const coordination: Renderer<
  "decision.opened" | "decision.answered" | "decision.cancelled" | "incident.opened" | "incident.updated"
>;
declare const steering: Renderer<"conversation.steered">;
declare const decisionReminders: Renderer<"decision.reminder">;
declare const runs: Renderer<"run.updated" | "run.verdict">;
declare const orchestrations: Renderer<"orchestration.updated">;
declare const lanes: Renderer<"lane.updated">;
declare const budgets: Renderer<"budget.reached">;
declare const handBack: Renderer<"conversation.files">;
declare const egress: Renderer<"conversation.egress_refused">;
declare const schedules: Renderer<"schedule.skipped" | "schedule.paused">;
declare const memory: Renderer<"memory.proposed" | "memory.updated">;
declare const approvals: Renderer<
  "approval.requested" | "approval.answered" | "approval.expired" | "approval.abandoned"
>;

/** Positive control: a map naming every kind compiles. */
export const complete = {
  "conversation.queued": conversations,
  "conversation.started": conversations,
  "conversation.steered": steering,
  "conversation.progress": conversations,
  "conversation.stopped": conversations,
  "conversation.finished": conversations,
  "conversation.files": handBack,
  "conversation.egress_refused": egress,
  "agent.outcome": "ignored",
  "decision.opened": coordination,
  "decision.reminder": decisionReminders,
  "decision.answered": coordination,
  "decision.cancelled": coordination,
  "approval.requested": approvals,
  "approval.answered": approvals,
  "approval.expired": approvals,
  "approval.abandoned": approvals,
  "incident.opened": coordination,
  "incident.updated": coordination,
  "specialist.updated": "ignored",
  "delegation.updated": "ignored",
  "orchestration.updated": orchestrations,
  "lane.updated": lanes,
  "run.updated": runs,
  "run.verdict": runs,
  "budget.reached": budgets,
  "schedule.skipped": schedules,
  "schedule.paused": schedules,
  "memory.proposed": memory,
  "memory.updated": memory,
} satisfies RendererMap;

const { "run.verdict": _verdict, ...withoutVerdict } = complete;

// @ts-expect-error a kind neither rendered nor ignored does not compile
export const missing = withoutVerdict satisfies RendererMap;

// @ts-expect-error a renderer of other kinds cannot stand for a kind
export const misplaced = { ...complete, "incident.opened": runs } satisfies RendererMap;

// @ts-expect-error a misspelt kind does not compile
export const misspelt = { ...complete, "run.verdit": runs } satisfies RendererMap;
