import { conversationRoot } from "../../views/conversation.js";
import type { SlackConversation } from "./conversationSnapshot.js";
import { placeOf } from "./conversationSnapshot.js";
import { Defer } from "./defer.js";
import { EditPacer } from "./editPacer.js";
import type { RendererBase } from "./rendererBase.js";
import type { TurnProgress } from "./turnProgress.js";
import type { PendingAcks } from "../pendingAcks.js";

// Looked at again this soon when the workspace's budget holds an edit back.
const BUDGET_RETRY_MS = 1_000;

/**
 * A conversation's state message (the thread's root for `/codex ask`, the first reply for a
 * mention or DM): posted once, then edited in place at most once a second and within the
 * workspace's budget, where a change of state goes before mere progress.
 */
export class StateMessages {
  private readonly pacer: EditPacer;

  constructor(
    private readonly base: RendererBase,
    private readonly turns: TurnProgress,
    private readonly acks?: PendingAcks,
  ) {
    this.pacer = new EditPacer(() => base.clock.now());
  }

  /** Posts the state message if it does not exist yet; returns the conversation with its thread. */
  async ensure(outboxId: number, snap: SlackConversation): Promise<SlackConversation> {
    if (snap.statusTs) return snap;
    const id = snap.conversationId;
    // Without a thread (/codex ask) the state message is the thread's root.
    const { ts, threadTs } = await this.base.postStateMessage(
      { kind: "conversation", id, key: `status:${id}` },
      placeOf(outboxId, snap),
      conversationRoot(this.base.locale, snap),
    );
    this.pacer.edited(id);
    // The root shows the state from now on: the "Working…" ephemeral has nothing left to say.
    this.acks?.rootPosted(id);
    return { ...snap, statusTs: ts, threadTs };
  }

  /**
   * Re-renders the state message of a streamed turn when it is older than `maxAgeMs` (its elapsed
   * time, or a new kind of activity such as reconnecting): the stream shows each activity, the
   * root keeps its summary current. Never waits: short of budget or pace, the next event does it.
   */
  async refreshIfStale(outboxId: number, snap: SlackConversation, maxAgeMs: number): Promise<void> {
    if (!snap.statusTs || this.pacer.age(snap.conversationId) < maxAgeMs) return;
    try {
      await this.refresh(outboxId, snap, false);
    } catch (err) {
      if (!(err instanceof Defer)) throw err;
    }
  }

  /** Re-renders the state message (posts it when there is none yet); `urgent` for a change of state. */
  async refresh(outboxId: number, snap: SlackConversation, urgent = true): Promise<SlackConversation> {
    if (!snap.statusTs) return this.ensure(outboxId, snap);
    this.pacer.check(snap.conversationId);
    const budget = await this.turns.editWait(urgent);
    // Looked at again soon: the turn may have ended meanwhile, which makes the edit urgent.
    if (budget > 0) throw new Defer(Math.min(budget, BUDGET_RETRY_MS));
    await this.base.edit(snap.channelId, snap.statusTs, conversationRoot(this.base.locale, snap));
    this.pacer.edited(snap.conversationId);
    return snap;
  }
}
