import type { ApprovalView } from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { approvalMessage, approvalSubject, diffFitsInline } from "../../views/approvals.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { fileNameOfKey, isSlackUser, RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of approvals. */
type ApprovalKind = "approval.requested" | "approval.answered" | "approval.expired" | "approval.abandoned";

/**
 * Approval requests in Slack. The card goes into its conversation's thread (or by DM when the
 * conversation is not in Slack and its person wants decisions by DM), a long diff beside it as a
 * file; the person gets a DM that an approval awaits them when the card is in a channel and they
 * want decisions notified. Once answered, expired or abandoned the card is edited to its closed
 * form: who answered and when, no buttons. Renders the approval's current state, never the event's.
 */
export class ApprovalMessages extends RendererBase implements Renderer<ApprovalKind> {
  async relevant(entries: Array<EntryOf<ApprovalKind>>): Promise<Set<number>> {
    return new Set(entries.map((e) => e.id));
  }

  async handle({ id: outboxId, event }: EntryOf<ApprovalKind>): Promise<Rendered> {
    const a = await this.api.approvals.read(event.approvalId);
    if (!a) return "ignored"; // its conversation was removed
    return this.inLocaleOf(a.user_id, () =>
      event.kind === "approval.requested" ? this.post(outboxId, a) : this.close(a),
    );
  }

  async reportFailure(): Promise<void> {
    // A card that cannot be posted leaves the request waiting until it expires (answered `cancel`).
  }

  private async close(a: ApprovalView): Promise<Rendered> {
    return (await this.editPosted(`approval:${a.id}`, approvalMessage(this.locale, a)))
      ? "posted"
      : "ignored";
  }

  private async post(outboxId: number, a: ApprovalView): Promise<Rendered> {
    // In the conversation's thread when it lives in Slack, else by DM to its person.
    const address = await this.addresses.get("conversation", a.conversation_id);
    let channel = address?.channel ?? null;
    let threadTs = address?.threadTs ?? null;
    if (!channel) {
      if (!isSlackUser(a.user_id) || !(await this.api.coordination.preferences(a.user_id)).decisions)
        return "ignored";
      channel = await this.dm(a.user_id);
      threadTs = null;
    }
    const view = approvalMessage(this.locale, a);
    const base = { outboxId, conversationId: a.conversation_id, purpose: "notice" as const, channel };
    const ts = await this.poster.postOnce({
      ...base,
      key: `approval:${a.id}`,
      threadTs,
      text: view.text,
      blocks: view.blocks,
    });
    if (a.diff && !diffFitsInline(a)) await this.uploadDiff(outboxId, a, channel, threadTs ?? ts);
    if (address) await this.ping(outboxId, a, channel, ts);
    return "posted";
  }

  /** The long diff as a file in the card's thread, once (its name carries the key). */
  private async uploadDiff(
    outboxId: number,
    a: ApprovalView,
    channel: string,
    threadTs: string,
  ): Promise<void> {
    const key = `approval-diff:${a.id}`;
    await this.uploadOnce(
      key,
      { outboxId, conversationId: a.conversation_id, channel, threadTs },
      {
        filename: `${fileNameOfKey(key)}.diff`,
        title: t(this.locale, "approval.diff_file_title"),
        content: a.diff ?? "",
      },
    );
  }

  /** A DM that an approval awaits, when the card is in a channel's thread and the person wants it. */
  private async ping(outboxId: number, a: ApprovalView, channel: string, ts: string): Promise<void> {
    if (channel.startsWith("D") || !isSlackUser(a.user_id)) return;
    if (!(await this.api.coordination.preferences(a.user_id)).decisions) return;
    await this.pingOnce({
      key: `approval-dm:${a.id}`,
      outboxId,
      conversationId: a.conversation_id,
      userId: a.user_id,
      at: { channel, ts },
      text: (link) =>
        t(this.locale, "notice.approval_waiting", {
          project: escapeClip(a.project_name, 100),
          what: approvalSubject(this.locale, a),
          link,
        }),
    });
  }
}
