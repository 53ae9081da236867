import type { WebClient } from "@slack/web-api";
import type { Database } from "../../engine/database.js";
import { readApproval, type ApprovalView } from "../../engine/approvals/view.js";
import { getPreferences } from "../../engine/coordination/preferences.js";
import { t, type Locale } from "../../i18n/index.js";
import { approvalMessage, approvalSubject, diffFitsInline } from "../../views/approvals.js";
import { escapeClip } from "../../views/mrkdwn.js";
import type { SlackAddresses } from "../store/addresses.js";
import type { SlackPoster } from "./poster.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of approvals. */
type ApprovalKind = "approval.requested" | "approval.answered" | "approval.expired" | "approval.abandoned";

const isSlackUser = (id: string | null): id is string => Boolean(id && /^[UW][A-Z0-9]+$/.test(id));

/**
 * Approval requests in Slack. The card goes into its conversation's thread (or by DM when the
 * conversation is not in Slack and its person wants decisions by DM), a long diff beside it as a
 * file; the person gets a DM that an approval awaits them when the card is in a channel and they
 * want decisions notified. Once answered, expired or abandoned the card is edited to its closed
 * form: who answered and when, no buttons. Renders the approval's current state, never the event's.
 */
export class ApprovalMessages implements Renderer<ApprovalKind> {
  constructor(
    private readonly db: Database,
    private readonly client: WebClient,
    private readonly poster: SlackPoster,
    private readonly addresses: SlackAddresses,
    private readonly fallback: Locale,
    private readonly locales: UserLocales,
  ) {}

  private get locale(): Locale {
    return currentLocale(this.fallback);
  }

  async relevant(entries: Array<EntryOf<ApprovalKind>>): Promise<Set<number>> {
    return new Set(entries.map((e) => e.id));
  }

  async handle({ id: outboxId, event }: EntryOf<ApprovalKind>): Promise<Rendered> {
    const a = await readApproval(this.db, event.approvalId);
    if (!a) return "ignored"; // its conversation was removed
    return inLocale(await this.locales.of(a.user_id), () =>
      event.kind === "approval.requested" ? this.post(outboxId, a) : this.close(a),
    );
  }

  async reportFailure(): Promise<void> {
    // A card that cannot be posted leaves the request waiting until it expires (answered `cancel`).
  }

  private async close(a: ApprovalView): Promise<Rendered> {
    const posted = await this.poster.posts.find(`approval:${a.id}`);
    if (posted?.status !== "posted" || !posted.ts) return "ignored";
    const view = approvalMessage(this.locale, a);
    await this.client.chat.update({
      channel: posted.channel,
      ts: posted.ts,
      text: view.text,
      blocks: view.blocks,
    });
    return "posted";
  }

  private async post(outboxId: number, a: ApprovalView): Promise<Rendered> {
    // In the conversation's thread when it lives in Slack, else by DM to its person.
    const address = await this.addresses.get("conversation", a.conversation_id);
    let channel = address?.channel ?? null;
    let threadTs = address?.threadTs ?? null;
    if (!channel) {
      if (!isSlackUser(a.user_id) || !(await getPreferences(this.db, a.user_id)).decisions) return "ignored";
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
    if (await this.poster.postedTs(key)) return;
    const filename = `${key.replace(/[^\w.-]/g, "-")}.diff`;
    const replies = await this.client.conversations.replies({ channel, ts: threadTs, limit: 200 });
    const already = (replies.messages ?? []).some((m) => (m.files ?? []).some((f) => f.name === filename));
    if (!already)
      await this.client.filesUploadV2({
        channel_id: channel,
        thread_ts: threadTs,
        filename,
        title: t(this.locale, "approval.diff_file_title"),
        content: a.diff ?? "",
      });
    await this.poster.posts.recordFile({
      key,
      outboxId,
      conversationId: a.conversation_id,
      channel,
      threadTs,
    });
  }

  /** A DM that an approval awaits, when the card is in a channel's thread and the person wants it. */
  private async ping(outboxId: number, a: ApprovalView, channel: string, ts: string): Promise<void> {
    if (channel.startsWith("D") || !isSlackUser(a.user_id)) return;
    if (!(await getPreferences(this.db, a.user_id)).decisions) return;
    const key = `approval-dm:${a.id}`;
    if (await this.poster.postedTs(key)) return;
    const link = await this.client.chat.getPermalink({ channel, message_ts: ts });
    const text = t(this.locale, "notice.approval_waiting", {
      project: escapeClip(a.project_name, 100),
      what: approvalSubject(this.locale, a),
      link: link.permalink ? `<${link.permalink}|${t(this.locale, "notice.see_thread")}>` : "",
    });
    await this.poster.postOnce({
      key,
      outboxId,
      conversationId: a.conversation_id,
      purpose: "notice",
      channel: await this.dm(a.user_id),
      threadTs: null,
      text,
    });
  }

  private async dm(userId: string): Promise<string> {
    const res = await this.client.conversations.open({ users: userId });
    const channel = res.channel?.id;
    if (!channel) throw new Error("conversations.open returned no channel");
    return channel;
  }
}
