import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../../engine/clock.js";
import type { Database } from "../../engine/database.js";
import { conversationSnapshot, type ConversationSnapshot } from "../../engine/agents/snapshot.js";
import { isMessageKey, t, type Locale } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { getPreferences } from "../../engine/coordination/preferences.js";
import { agentAnswer, conversationRoot } from "../../views/conversation.js";
import type { SlackPoster } from "./poster.js";
import type { EventRenderer, OutboxRow, Rendered } from "./renderer.js";

/** Thrown to put an event back for `ms` (the once-a-second edit limit of a message). */
export class Defer extends Error {
  constructor(readonly ms: number) {
    super(`deferred ${ms} ms`);
  }
}

/** Events that only re-render a conversation's state message (so consecutive ones collapse). */
export const REFRESH_KINDS = new Set(["conversation.queued", "conversation.started", "conversation.progress", "conversation.stopped"]);

const MIN_EDIT_INTERVAL_MS = 1_000;

/**
 * Turns conversation events into Slack messages: the state message (thread root for
 * `/codex ask`, first reply for a mention or DM) edited in place, the agent's answer in the
 * thread (split, or uploaded as a file when long), and notices for failures and stops.
 * Renders the current state from the database, never the event's: late or repeated events
 * cannot show stale states.
 */
export class ConversationMessages implements EventRenderer {
  readonly kinds: ReadonlySet<string> = new Set([...REFRESH_KINDS, "conversation.finished"]);
  private readonly lastEdit = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly client: WebClient,
    private readonly poster: SlackPoster,
    private readonly clock: Clock,
    private readonly locale: Locale,
    private readonly logger: Logger,
  ) {}

  /** Only conversations started from Slack have a thread to show their events in. */
  async relevant(rows: OutboxRow[]): Promise<Set<number>> {
    const conversationOf = (row: OutboxRow) => /^conversation:(.+)$/.exec(row.ordering_key ?? "")?.[1] ?? null;
    const ids = [...new Set(rows.map(conversationOf).filter((x): x is string => x !== null))];
    if (!ids.length) return new Set();
    const inSlack = new Set(
      (await this.db.selectFrom("conversations").select("id").where("id", "in", ids).where("slack_channel_id", "is not", null).execute()).map((r) => r.id),
    );
    return new Set(rows.filter((row) => inSlack.has(conversationOf(row) ?? "")).map((row) => row.id));
  }

  /** Handles one outbox event; Slack errors propagate to the notifier's retry policy. */
  async handle(outboxId: number, kind: string, payload: Record<string, unknown>): Promise<Rendered> {
    const conversationId = typeof payload.conversationId === "string" ? payload.conversationId : null;
    if (!conversationId || !kind.startsWith("conversation.")) return "ignored";
    const snap = await conversationSnapshot(this.db, conversationId);
    if (!snap?.channelId) return "ignored"; // not a Slack conversation (CLI)
    if (REFRESH_KINDS.has(kind)) {
      await this.refresh(outboxId, snap);
      return "refreshed";
    }
    if (kind === "conversation.finished") {
      const withThread = await this.ensureStateMessage(outboxId, snap);
      await this.postOutcome(outboxId, withThread, payload);
      await this.pingAuthor(outboxId, withThread, payload);
      await this.refresh(outboxId, withThread);
      return "posted";
    }
    return "ignored";
  }

  /** Tells the conversation's user by DM that a notification could not be delivered. */
  async reportFailure(outboxId: number, payload: Record<string, unknown>, code: string): Promise<void> {
    const conversationId = typeof payload.conversationId === "string" ? payload.conversationId : null;
    if (!conversationId) return;
    const snap = await conversationSnapshot(this.db, conversationId);
    if (!snap?.userId || !snap.channelId || !/^[UW]/.test(snap.userId)) return;
    const dm = await this.client.conversations.open({ users: snap.userId });
    const channel = dm.channel?.id;
    if (!channel) return;
    const text =
      code === "not_in_channel" || code === "channel_not_found"
        ? t(this.locale, "notice.not_in_channel", { channel: `<#${snap.channelId}>` })
        : t(this.locale, "notice.delivery_failed", { code, project: snap.projectName });
    // One notice per conversation and cause, however many events fail.
    await this.poster.postOnce({ key: `failure:${conversationId}:${code}`, outboxId, conversationId, purpose: "notice", channel, threadTs: null, text });
  }

  /** Posts the state message if it does not exist yet; returns the snapshot with its thread. */
  private async ensureStateMessage(outboxId: number, snap: ConversationSnapshot): Promise<ConversationSnapshot> {
    if (snap.statusTs) return snap;
    const view = conversationRoot(this.locale, snap);
    const ts = await this.poster.postOnce({
      key: `status:${snap.conversationId}`,
      outboxId,
      conversationId: snap.conversationId,
      purpose: "status",
      channel: snap.channelId as string,
      threadTs: snap.threadTs, // null for /codex ask: the state message is the thread's root
      text: view.text,
      blocks: view.blocks,
    });
    const threadTs = snap.threadTs ?? ts;
    await this.db.updateTable("conversations").set({ slack_status_ts: ts, slack_thread_ts: threadTs }).where("id", "=", snap.conversationId).execute();
    this.lastEdit.set(snap.conversationId, this.clock.now());
    return { ...snap, statusTs: ts, threadTs };
  }

  /** Re-renders the state message, at most once a second. */
  private async refresh(outboxId: number, snap: ConversationSnapshot): Promise<void> {
    if (!snap.statusTs) {
      await this.ensureStateMessage(outboxId, snap);
      return;
    }
    const last = this.lastEdit.get(snap.conversationId) ?? 0;
    const wait = last + MIN_EDIT_INTERVAL_MS - this.clock.now();
    if (wait > 0) throw new Defer(wait);
    const view = conversationRoot(this.locale, snap);
    await this.client.chat.update({ channel: snap.channelId as string, ts: snap.statusTs, text: view.text, blocks: view.blocks as never });
    this.lastEdit.set(snap.conversationId, this.clock.now());
  }

  /** The answer (done), or a notice (failed, cancelled), in the thread. */
  private async postOutcome(outboxId: number, snap: ConversationSnapshot, payload: Record<string, unknown>): Promise<void> {
    const base = { outboxId, conversationId: snap.conversationId, channel: snap.channelId as string, threadTs: snap.threadTs };
    const status = payload.status;
    if (status === "done") {
      const messageId = typeof payload.messageId === "string" ? payload.messageId : null;
      const message = messageId ? await this.db.selectFrom("messages").select("content").where("id", "=", messageId).executeTakeFirst() : undefined;
      const answer = agentAnswer(this.locale, message?.content ?? "");
      for (const [i, m] of answer.messages.entries()) {
        await this.poster.postOnce({ ...base, key: `${outboxId}:answer:${i}`, purpose: "answer", text: m.text, blocks: m.blocks });
      }
      if (answer.file) await this.uploadOnce(`${outboxId}:file`, base, answer.file);
      return;
    }
    const item = typeof payload.queueId === "string" ? await this.db.selectFrom("prompt_queue").select(["error", "error_code"]).where("id", "=", payload.queueId).executeTakeFirst() : undefined;
    // The catalog explains the failure in the reader's language; Codex's own message is kept
    // when it is the cause (it is data from the agent: escaped, never formatting).
    const code = `failure.${item?.error_code ?? ""}`;
    const reason = isMessageKey(code) ? t(this.locale, code) : "";
    const detail = item?.error_code === "codex_failed" || !reason ? escapeClip(item?.error ?? "?", 1500) : "";
    const text = status === "cancelled" ? t(this.locale, "notice.stopped") : t(this.locale, "notice.failed", { error: [reason, detail].filter(Boolean).join(" — ") });
    await this.poster.postOnce({ ...base, key: `${outboxId}:notice`, purpose: "notice", text });
  }

  /**
   * A DM to the author when their task ends in a channel (never for a DM conversation, which is
   * already theirs, nor for a stop they asked), if their preferences say so.
   */
  private async pingAuthor(outboxId: number, snap: ConversationSnapshot, payload: Record<string, unknown>): Promise<void> {
    if (payload.status === "cancelled" || snap.origin === "dm" || !snap.userId || !/^[UW][A-Z0-9]+$/.test(snap.userId)) return;
    if (!(await getPreferences(this.db, snap.userId)).task_completion) return;
    const key = `${outboxId}:ping`;
    if (await this.poster.postedTs(key)) return;
    const link = await this.client.chat.getPermalink({ channel: snap.channelId as string, message_ts: snap.threadTs as string });
    const dm = await this.client.conversations.open({ users: snap.userId });
    if (!dm.channel?.id) return;
    const text = t(this.locale, payload.status === "done" ? "notice.task_done" : "notice.task_failed", {
      project: escapeClip(snap.projectName, 100),
      link: link.permalink ? `<${link.permalink}|${t(this.locale, "notice.see_thread")}>` : "",
    });
    await this.poster.postOnce({ key, outboxId, conversationId: snap.conversationId, purpose: "notice", channel: dm.channel.id, threadTs: null, text });
  }

  /** Uploads a file once: its name carries the key, found again in the thread after a crash. */
  private async uploadOnce(
    key: string,
    base: { outboxId: number; conversationId: string; channel: string; threadTs: string | null },
    file: { filename: string; content: string; title: string },
  ): Promise<void> {
    if (await this.poster.postedTs(key)) return;
    const filename = `${key.replace(/[^\w.-]/g, "-")}-${file.filename}`;
    if (base.threadTs) {
      const replies = await this.client.conversations.replies({ channel: base.channel, ts: base.threadTs, limit: 200 });
      const already = (replies.messages ?? []).some((m) => (m.files ?? []).some((f) => f.name === filename));
      if (already) return this.markFilePosted(key, base);
    }
    await this.client.filesUploadV2({
      channel_id: base.channel,
      ...(base.threadTs ? { thread_ts: base.threadTs } : {}),
      filename,
      title: file.title,
      content: file.content,
    } as never);
    await this.markFilePosted(key, base);
  }

  private async markFilePosted(key: string, base: { outboxId: number; conversationId: string; channel: string; threadTs: string | null }) {
    await this.db
      .insertInto("slack_posts")
      .values({ key, outbox_id: base.outboxId, conversation_id: base.conversationId, purpose: "file", channel_id: base.channel, thread_ts: base.threadTs, ts: "file", status: "posted", created_at: this.clock.now() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ status: "posted", ts: "file" }))
      .execute();
    this.logger.debug({ key }, "file uploaded");
  }
}
