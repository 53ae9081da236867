import type { EventOf } from "../../engine/api/model.js";
import type { Logger } from "pino";
import type { PendingAcks } from "../pendingAcks.js";
import { t } from "../../i18n/index.js";
import { pingAuthor } from "./authorPing.js";
import { ConversationSnapshots, turnOf, type SlackConversation } from "./conversationSnapshot.js";
import { acknowledgeFollowUp } from "./followUpAck.js";
import { RendererBase, type RendererDeps } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";
import { StateMessages } from "./stateMessage.js";
import { tellStop } from "./stopNotice.js";
import type { TurnProgress } from "./turnProgress.js";
import { postOutcome } from "./turnOutcome.js";

/** The events that show in a conversation's thread. */
type ConversationKind =
  | "conversation.queued"
  | "conversation.started"
  | "conversation.progress"
  | "conversation.stopped"
  | "conversation.finished";

/**
 * Events that only re-render a conversation's state message (so consecutive ones collapse).
 * `conversation.queued` is not one (a follow-up's may post its acknowledgement), nor
 * `conversation.stopped` (it posts what the stop cancelled).
 */
export const REFRESH_KINDS: ReadonlySet<string> = new Set<ConversationKind>([
  "conversation.started",
  "conversation.progress",
]);

// Matches CODEXPI_DONE_DM_SECONDS' default (notifiers built without the configuration: tests).
const DEFAULT_DONE_DM_AFTER_MS = 60_000;

// While a turn streams, its root is edited at most this often (its elapsed time; the heartbeat of
// a running turn brings an event every 30 s): within the budget the stream's appends share.
const ROOT_WHILE_STREAMING_MS = 15_000;

/** What the conversations' renderer is built from: the renderers' own, and the running turns' progress. */
export interface ConversationDeps extends RendererDeps {
  logger: Logger;
  turns: TurnProgress;
  /** `/codex ask` acknowledgements, removed once their root is posted. */
  acks?: PendingAcks;
  /** A "done" DM only for turns that ran at least this long (default 60 s; 0: every turn). */
  doneDmAfterMs?: number;
}

/**
 * Turns conversation events into Slack messages: the state message (stateMessage.ts) edited in
 * place, the agent's answer in the thread (turnOutcome.ts), notices for follow-ups, stops and
 * failures, a DM to the author (authorPing.ts). Renders the current state from the database,
 * never the event's: late or repeated events cannot show stale states.
 */
export class ConversationMessages extends RendererBase implements Renderer<ConversationKind> {
  private readonly turns: TurnProgress;
  private readonly snapshots: ConversationSnapshots;
  private readonly state: StateMessages;
  private readonly doneDmAfterMs: number;

  constructor(deps: ConversationDeps) {
    super(deps);
    this.doneDmAfterMs = deps.doneDmAfterMs ?? DEFAULT_DONE_DM_AFTER_MS;
    this.turns = deps.turns;
    this.snapshots = new ConversationSnapshots(this);
    this.state = new StateMessages(this, deps.turns, deps.acks);
  }

  /** Only conversations started from Slack have a thread to show their events in. */
  relevant(entries: Array<EntryOf<ConversationKind>>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  /** Handles one outbox event; Slack errors propagate to the notifier's retry policy. */
  async handle(entry: EntryOf<ConversationKind>): Promise<Rendered> {
    const snap = await this.snapshots.load(entry.event.conversationId);
    if (!snap) return "ignored"; // not a Slack conversation (CLI)
    // Thread posts and DMs alike read in the language of the conversation's person.
    return this.inLocaleOf(snap.userId, () => this.render(entry, snap));
  }

  private async render(
    { id: outboxId, event }: EntryOf<ConversationKind>,
    snap: SlackConversation,
  ): Promise<Rendered> {
    if (event.kind === "conversation.queued" && (await acknowledgeFollowUp(this, outboxId, snap, event))) {
      await this.state.refresh(outboxId, snap);
      return "posted";
    }
    if (event.kind === "conversation.stopped" && event.by) {
      await tellStop(this, outboxId, await this.state.ensure(outboxId, snap), { ...event, by: event.by });
      await this.state.refresh(outboxId, snap);
      return "posted";
    }
    if (event.kind !== "conversation.finished") {
      await this.showTurn(outboxId, snap, event.kind === "conversation.progress" ? event.queueId : null);
      return "refreshed";
    }
    await this.finish(outboxId, snap, event);
    return "posted";
  }

  /**
   * The state message, and the running turn's progress in its stream or interim posts. A progress
   * event (`progressOf`: its turn) of a streamed turn leaves the state message alone: the stream
   * shows each activity. One read after its turn ended shows nothing: the turn's end follows.
   */
  private async showTurn(
    outboxId: number,
    snap: SlackConversation,
    progressOf: string | null,
  ): Promise<void> {
    if (progressOf && (snap.status !== "running" || snap.queueId !== progressOf)) return;
    // Stop was pressed: the root says so already; what the killed turn does meanwhile is not shown
    // (its command ending would read as done, and the root as running again).
    if (progressOf && snap.stopping) return;
    if (progressOf && this.turns.isStreaming(snap.queueId)) {
      if (await this.turns.show(outboxId, turnOf(snap), this.locale)) {
        // The root's summary stays current too (its elapsed time; a model it cannot reach at once).
        const reconnecting = snap.progress?.kind === "reconnecting";
        await this.state.refreshIfStale(outboxId, snap, reconnecting ? 1_000 : ROOT_WHILE_STREAMING_MS);
        return;
      }
    }
    const shown = await this.state.refresh(outboxId, snap, !progressOf);
    await this.turns.show(outboxId, turnOf(shown), this.locale);
  }

  /** A finished turn: its stream ends, its answer or notice is posted, its author told, its state shown. */
  private async finish(
    outboxId: number,
    snap: SlackConversation,
    event: EventOf<"conversation.finished">,
  ): Promise<void> {
    const withThread = await this.state.ensure(outboxId, snap);
    // The turn's stream ends before its answer (unless the budget would hold the answer back): the
    // answer is posted below, exactly once, as ever.
    const turn = turnOf(withThread);
    const stop = await this.turns.end(outboxId, event.queueId, turn, this.locale, true, event.status);
    await postOutcome(this, outboxId, withThread, event);
    await pingAuthor(this, outboxId, withThread, event, this.doneDmAfterMs);
    if (stop === "later")
      await this.turns.end(outboxId, event.queueId, turn, this.locale, false, event.status);
    await this.state.refresh(outboxId, withThread);
  }

  /** Tells the conversation's user by DM that a notification could not be delivered. */
  async reportFailure({ id: outboxId, event }: EntryOf<ConversationKind>, code: string): Promise<void> {
    const conversationId = event.conversationId;
    const snap = await this.snapshots.load(conversationId);
    const userId = snap?.userId;
    if (!snap || !userId || !/^[UW]/.test(userId)) return;
    return this.inLocaleOf(userId, () =>
      // One notice per conversation and cause, however many events fail.
      this.tellDeliveryFailure({
        key: `failure:${conversationId}:${code}`,
        outboxId,
        conversationId,
        userId,
        code,
        where: `<#${snap.channelId}>`,
        otherwise: () => t(this.locale, "notice.delivery_failed", { code, project: snap.projectName }),
      }),
    );
  }

  /**
   * Re-renders the state message after an approval's card was posted or answered: the turn
   * waits for it (linked), or runs again.
   */
  async refreshAfterApproval(outboxId: number, conversationId: string): Promise<void> {
    const snap = await this.snapshots.load(conversationId);
    if (!snap?.statusTs) return;
    await this.inLocaleOf(snap.userId, () => this.state.refresh(outboxId, snap));
  }

  /**
   * Shows a just-posted decision's question in the state message (its link): the status said
   * "waiting" when the turn finished, before the card existed.
   */
  async refreshWithQuestion(outboxId: number, conversationId: string): Promise<void> {
    const snap = await this.snapshots.load(conversationId);
    if (!snap?.decisionLink) return;
    await this.inLocaleOf(snap.userId, () => this.state.refresh(outboxId, snap));
  }
}
