import { t } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { Defer } from "./defer.js";
import { isSlackUser, RendererBase, type RendererDeps } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** When a decision's DM goes, and what counts as being in its thread (see docs/using.md). */
export interface DecisionReminderSettings {
  /** The DM waits this long after the decision opened (CODEXPI_DECISION_DM_SECONDS). */
  afterMs: number;
  /** A person who wrote in the thread this recently is there: no DM while they are (CODEXPI_THREAD_ACTIVE_MINUTES). */
  activeMs: number;
}

/** A card not posted by the DM's time is looked for again this soon, for this long. */
const CARD_POLL_MS = 1_000;
const CARD_GIVE_UP_MS = 3_600_000;

const tsMs = (ts: string): number => Math.round(Number(ts) * 1000);

/**
 * The DM telling a person a decision awaits them in a channel's thread. It waits (its outbox
 * event postponed, so a restart keeps the wait) `afterMs` after the decision opened; by then an
 * answered or cancelled decision needs no DM. While its person is active in the thread (they
 * wrote in it within `activeMs`, which the bot sees in the thread's messages) it waits until they
 * have not. Their preference for decision DMs is respected; a card posted by DM is its own DM.
 */
export class DecisionReminders extends RendererBase implements Renderer<"decision.reminder"> {
  constructor(
    deps: RendererDeps,
    private readonly settings: DecisionReminderSettings,
  ) {
    super(deps);
  }

  async relevant(entries: Array<EntryOf<"decision.reminder">>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle({ id: outboxId, event, createdAt }: EntryOf<"decision.reminder">): Promise<Rendered> {
    const { decision: d, projectName } = await this.api.decisions.card(event.decisionId);
    if (d.status !== "OPEN" || !isSlackUser(d.user_id)) return "ignored";
    // The wait first: nothing of Slack is read before the DM is due.
    const due = createdAt + this.settings.afterMs;
    if (due > this.clock.now()) throw new Defer(due - this.clock.now());
    const card = await this.poster.posts.find(`decision:${d.id}`);
    if (card?.status !== "posted" || !card.ts) {
      // A card never posted (its delivery failed for good) has nothing to point to: given up.
      if (this.clock.now() > due + CARD_GIVE_UP_MS) return "ignored";
      throw new Defer(CARD_POLL_MS);
    }
    if (card.channel.startsWith("D") || !card.threadTs) return "ignored";
    // In the thread lately: not while they are there; looked at again once they would not be.
    const activeUntil = await this.activeUntil(d.user_id, card);
    if (activeUntil > this.clock.now()) throw new Defer(activeUntil - this.clock.now());
    const userId = d.user_id;
    return this.inLocaleOf(userId, async () => {
      if (!(await this.api.coordination.preferences(userId)).decisions) return "ignored";
      await this.pingOnce({
        key: `decision-dm:${d.id}`,
        outboxId,
        conversationId: d.conversation_id,
        userId,
        at: { channel: card.channel, ts: card.ts as string },
        text: (link) =>
          t(this.locale, "notice.decision_waiting", {
            project: escapeClip(projectName, 100),
            title: escapeClip(d.title, 200),
            link,
          }),
      });
      return "posted";
    });
  }

  async reportFailure(): Promise<void> {
    // The card in the thread, /codex decisions and App Home still show the decision.
  }

  /** Until when the person counts as in the thread: their last message there plus `activeMs` (0: not there). */
  private async activeUntil(
    userId: string,
    card: { channel: string; threadTs: string | null },
  ): Promise<number> {
    const oldest = this.clock.now() - this.settings.activeMs;
    const res = await this.client.conversations.replies({
      channel: card.channel,
      ts: card.threadTs as string,
      oldest: (oldest / 1000).toFixed(6),
      limit: 200,
    });
    const theirs = (res.messages ?? [])
      .filter((m) => m.user === userId && m.ts && tsMs(m.ts) >= oldest)
      .map((m) => tsMs(m.ts as string));
    return theirs.length ? Math.max(...theirs) + this.settings.activeMs : 0;
  }
}
