import type { RespondFn } from "@slack/bolt";
import type { Logger } from "pino";

/** Removes one acknowledgement (an ephemeral answer of a slash command) through its response URL. */
export type AckRemover = () => Promise<void>;

// A response URL works for 30 minutes: an acknowledgement older than that stays (Slack lets
// nobody remove it then), and is forgotten.
const RESPONSE_URL_LIFE_MS = 30 * 60_000;

/**
 * The acknowledgements that wait for their conversation's root: `/codex ask` answers at once with
 * an ephemeral "Working…", which has nothing left to say once the root (which shows the state)
 * is in the channel, so it is deleted then (`delete_original` on its response URL). Either side
 * may come first — the ephemeral sent after the root was posted, or the root posted before the
 * ephemeral's answer came back — so each side looks for the other: whichever arrives second
 * deletes. Held in this process's memory: the listener and the notifier of `serve` share it; a
 * restart in between (or a notifier in another instance) leaves the ephemeral, as before.
 */
export class PendingAcks {
  private readonly acks = new Map<string, { remove: AckRemover; at: number }>();
  private readonly rooted = new Map<string, number>();

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The ephemeral acknowledgement of `conversationId` was shown; removes it if its root exists. */
  sent(conversationId: string, respond: RespondFn): void {
    this.prune();
    const remove = async () => {
      await respond({ delete_original: true });
    };
    if (this.rooted.has(conversationId)) {
      this.rooted.delete(conversationId);
      this.removeNow(remove);
      return;
    }
    this.acks.set(conversationId, { remove, at: this.now() });
  }

  /** The conversation's root was just posted: its acknowledgement (if shown) goes. */
  rootPosted(conversationId: string): void {
    this.prune();
    const ack = this.acks.get(conversationId);
    if (!ack) {
      this.rooted.set(conversationId, this.now());
      return;
    }
    this.acks.delete(conversationId);
    this.removeNow(ack.remove);
  }

  private removeNow(remove: AckRemover): void {
    // Not awaited: a lost deletion leaves a stale ephemeral, never a lost event.
    remove().catch((err) => this.logger.warn({ err }, "could not remove an acknowledgement"));
  }

  private prune(): void {
    const oldest = this.now() - RESPONSE_URL_LIFE_MS;
    for (const [id, a] of this.acks) if (a.at < oldest) this.acks.delete(id);
    for (const [id, at] of this.rooted) if (at < oldest) this.rooted.delete(id);
  }
}
