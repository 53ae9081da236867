import type { ApprovalMessages } from "./approvalMessages.js";
import { ApprovalStatus } from "./approvalStatus.js";
import type { ConversationMessages } from "./conversationMessages.js";
import type { CoordinationMessages } from "./coordinationMessages.js";
import { type LaneCards, TurnThenLaneCard } from "./laneCards.js";
import { DecisionOpened } from "./decisionOpened.js";
import type { DecisionReminders } from "./decisionReminder.js";
import type { OrchestrationMessages } from "./orchestrationMessages.js";
import type { RendererMap } from "./renderer.js";
import type { RunMessages } from "./runMessages.js";
import type { SteerMessages } from "./steerMessages.js";
import type { BudgetNotices } from "./budgetNotices.js";
import type { HandBackFiles } from "./handBackFiles.js";
import type { ScheduleMessages } from "./scheduleMessages.js";
import type { EgressNotices } from "./egressNotices.js";
import type { MemoryCards } from "./memoryCards.js";

/** The notifier's renderers, one per family of events. */
export interface Renderers {
  conversations: ConversationMessages;
  coordination: CoordinationMessages;
  decisionReminders: DecisionReminders;
  runs: RunMessages;
  orchestrations: OrchestrationMessages;
  approvals: ApprovalMessages;
  steering: SteerMessages;
  lanes: LaneCards;
  budgets: BudgetNotices;
  handBack: HandBackFiles;
  schedules: ScheduleMessages;
  egress: EgressNotices;
  memory: MemoryCards;
}

/** What the notifier does with each kind of event: checked at compile time to cover every kind. */
export function renderersOf(r: Renderers): RendererMap {
  // Its card, then the conversation's state message (waiting for it, or running again).
  const approvals = new ApprovalStatus(r.approvals, r.conversations);
  return {
    "conversation.queued": r.conversations,
    "conversation.started": r.conversations,
    "conversation.steered": r.steering,
    "conversation.progress": r.conversations,
    "conversation.stopped": r.conversations,
    // The turn's answer, then its lane's card (branch mode).
    "conversation.finished": new TurnThenLaneCard(r.conversations, r.lanes),
    // The files the turn's agent left in its outbox, uploaded into the thread after its answer.
    "conversation.files": r.handBack,
    // The hosts its agent was refused, told once per turn after its answer.
    "conversation.egress_refused": r.egress,
    // The end of a turn is shown by conversation.finished; this one feeds the engine's own hooks.
    "agent.outcome": "ignored",
    // Its card, then the conversation's state message linking to it.
    "decision.opened": new DecisionOpened(r.coordination, r.conversations),
    // The DM saying it awaits: a while after the card, unless answered or its person is in the thread.
    "decision.reminder": r.decisionReminders,
    "decision.answered": r.coordination,
    "decision.cancelled": r.coordination,
    "approval.requested": approvals,
    "approval.answered": approvals,
    "approval.expired": approvals,
    "approval.abandoned": approvals,
    "incident.opened": r.coordination,
    "incident.updated": r.coordination,
    // A specialist's state is listed by /codex specialists and App Home; it has no thread of its own.
    "specialist.updated": "ignored",
    // A delegation shows in Slack through its conversations: the specialist's answer comes back to
    // the caller's conversation as a turn of its own, rendered by the conversation events.
    "delegation.updated": "ignored",
    "orchestration.updated": r.orchestrations,
    "lane.updated": r.lanes,
    "run.updated": r.runs,
    "run.verdict": r.runs,
    "budget.reached": r.budgets,
    "schedule.skipped": r.schedules,
    "schedule.paused": r.schedules,
    "memory.proposed": r.memory,
    "memory.updated": r.memory,
  } satisfies RendererMap;
}
