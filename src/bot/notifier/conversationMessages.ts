import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../../engine/clock.js";
import type { Database } from "../../engine/database.js";
import {
  answerText,
  conversationView,
  turnFailure,
  type ConversationView,
} from "../../engine/read/conversations.js";
import { isMessageKey, t, type Locale } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { getPreferences } from "../../engine/coordination/preferences.js";
import { itemOpenedIncident } from "../../engine/read/coordination.js";
import { agentAnswer, conversationRoot, followUpAck, stopSummary } from "../../views/conversation.js";
import { waitedForItsConversation } from "../../engine/conversations/queueReads.js";
import { followUpFate } from "../../engine/conversations/steer.js";
import type { EventOf } from "../../engine/outbox.js";
import type { SlackAddresses, SlackOrigin } from "../store/addresses.js";
import type { SlackPoster } from "./poster.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";
import { Defer } from "./defer.js";
import type { TurnOnSlack, TurnProgress } from "./turnProgress.js";

/** The events that show in a conversation's thread. */
type ConversationKind =
  | "conversation.queued"
  | "conversation.started"
  | "conversation.progress"
  | "conversation.stopped"
  | "conversation.finished";
import { failureText } from "../../i18n/failures.js";
import { withoutDecisionMarker } from "../../engine/protocol/markers.js";

/**
 * Events that only re-render a conversation's state message (so consecutive ones collapse).
 * `conversation.queued` is not one (a follow-up's may post its acknowledgement), nor
 * `conversation.stopped` (it posts what the stop cancelled).
 */
export const REFRESH_KINDS: ReadonlySet<string> = new Set<ConversationKind>([
  "conversation.started",
  "conversation.progress",
]);

const MIN_EDIT_INTERVAL_MS = 1_000;
const BUDGET_RETRY_MS = 1_000;
// A steerable follow-up's acknowledgement waits this long between looks (the worker polls twice a second).
const STEER_ACK_POLL_MS = 300;

/** A conversation with where it lives in Slack: its thread and its state message, once posted. */
type SlackConversation = ConversationView & {
  now: number;
  /** The permalink of the waiting decision's question, once it is posted. */
  decisionLink: string | null;
  /** The permalink of the card of the approval the turn waits for, once it is posted. */
  approvalLink: string | null;
  channelId: string;
  threadTs: string | null;
  statusTs: string | null;
  /** How it was asked (`/codex ask`, a mention, a DM). */
  origin: SlackOrigin | null;
};

/**
 * Turns conversation events into Slack messages: the state message (thread root for
 * `/codex ask`, first reply for a mention or DM) edited in place, the agent's answer in the
 * thread (split, or uploaded as a file when long), and notices for failures and stops.
 * Renders the current state from the database, never the event's: late or repeated events
 * cannot show stale states.
 */
export class ConversationMessages implements Renderer<ConversationKind> {
  private readonly lastEdit = new Map<string, number>();
  /** Permalinks of decision questions (a posted message's link never changes). */
  private readonly questionLinks = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly client: WebClient,
    private readonly poster: SlackPoster,
    private readonly addresses: SlackAddresses,
    private readonly clock: Clock,
    private readonly fallback: Locale,
    private readonly logger: Logger,
    private readonly locales: UserLocales,
    private readonly turns: TurnProgress,
  ) {}

  /** The language of the conversation's person, set around each event (see `handle`). */
  private get locale(): Locale {
    return currentLocale(this.fallback);
  }

  /** Only conversations started from Slack have a thread to show their events in. */
  async relevant(entries: Array<EntryOf<ConversationKind>>): Promise<Set<number>> {
    const ids = [...new Set(entries.map((e) => e.event.conversationId))];
    if (!ids.length) return new Set();
    const inSlack = await this.addresses.addressed("conversation", ids);
    return new Set(entries.filter((e) => inSlack.has(e.event.conversationId)).map((e) => e.id));
  }

  /** Handles one outbox event; Slack errors propagate to the notifier's retry policy. */
  async handle(entry: EntryOf<ConversationKind>): Promise<Rendered> {
    const snap = await this.load(entry.event.conversationId);
    if (!snap) return "ignored"; // not a Slack conversation (CLI)
    // Thread posts and DMs alike read in the language of the conversation's person.
    return inLocale(await this.locales.of(snap.userId), () => this.render(entry, snap));
  }

  private async render(
    { id: outboxId, event }: EntryOf<ConversationKind>,
    snap: SlackConversation,
  ): Promise<Rendered> {
    if (event.kind === "conversation.queued" && (await this.acknowledge(outboxId, snap, event))) {
      await this.refresh(outboxId, snap);
      return "posted";
    }
    if (event.kind === "conversation.stopped" && event.by) {
      await this.tellStop(outboxId, await this.ensureStateMessage(outboxId, snap), {
        ...event,
        by: event.by,
      });
      await this.refresh(outboxId, snap);
      return "posted";
    }
    if (event.kind !== "conversation.finished") {
      await this.showTurn(outboxId, snap, event.kind === "conversation.progress" ? event.queueId : null);
      return "refreshed";
    }
    const withThread = await this.ensureStateMessage(outboxId, snap);
    // The turn's stream ends before its answer (unless the budget would hold the answer back): the
    // answer is posted below, exactly once, as ever.
    const turn = turnOf(withThread);
    const stop = await this.turns.end(outboxId, event.queueId, turn, this.locale, true);
    await this.postOutcome(outboxId, withThread, event);
    await this.pingAuthor(outboxId, withThread, event);
    if (stop === "later") await this.turns.end(outboxId, event.queueId, turn, this.locale);
    await this.refresh(outboxId, withThread);
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
    if (progressOf && this.turns.isStreaming(snap.queueId)) {
      if (await this.turns.show(outboxId, turnOf(snap), this.locale)) return;
    }
    const shown = await this.refresh(outboxId, snap, !progressOf);
    await this.turns.show(outboxId, turnOf(shown), this.locale);
  }

  /**
   * A follow-up written while its conversation was busy gets a short reply in the thread with its
   * place in the queue (1: next), posted once per item; an idle conversation's follow-up starts at
   * once and the state message says so. In the thread rather than ephemeral: everyone following
   * it sees that the reply was taken, and an outbox post survives a restart. True when it is one.
   */
  private async acknowledge(
    outboxId: number,
    snap: SlackConversation,
    event: EventOf<"conversation.queued">,
  ): Promise<boolean> {
    if (!snap.threadTs || !(await waitedForItsConversation(this.db, event.queueId))) return false;
    // A follow-up the running turn takes is told so by its `conversation.steered` (steerMessages).
    const fate = await followUpFate(this.db, event.queueId, this.clock.now());
    if (fate === "steering") throw new Defer(STEER_ACK_POLL_MS);
    if (fate === "steered") return false;
    const ack = followUpAck(this.locale, { position: event.position + 1 });
    await this.poster.postOnce({
      key: `followup:${event.queueId}`,
      outboxId,
      conversationId: snap.conversationId,
      purpose: "notice",
      channel: snap.channelId,
      threadTs: snap.threadTs,
      text: ack.text,
      blocks: ack.blocks,
    });
    return true;
  }

  /**
   * Who stopped and what it cancelled, once in the thread for everyone following it (a second
   * click stops nothing and emits nothing; a replayed event finds its post by key).
   */
  private async tellStop(
    outboxId: number,
    snap: SlackConversation,
    event: EventOf<"conversation.stopped"> & { by: string },
  ): Promise<void> {
    const text = stopSummary(this.locale, {
      userId: event.by,
      stoppingRunning: event.stoppingRunning ?? 0,
      cancelledQueued: event.cancelledQueued ?? 0,
      cancelledDecisions: event.cancelledDecisions ?? 0,
    });
    await this.poster.postOnce({
      key: `stop:${outboxId}`,
      outboxId,
      conversationId: snap.conversationId,
      purpose: "notice",
      channel: snap.channelId,
      threadTs: snap.threadTs,
      text,
    });
  }

  /** Tells the conversation's user by DM that a notification could not be delivered. */
  async reportFailure({ id: outboxId, event }: EntryOf<ConversationKind>, code: string): Promise<void> {
    const conversationId = event.conversationId;
    const snap = await this.load(conversationId);
    if (!snap?.userId || !/^[UW]/.test(snap.userId)) return;
    const userId = snap.userId;
    return inLocale(await this.locales.of(userId), () =>
      this.tellFailure(outboxId, { ...snap, userId }, code),
    );
  }

  private async tellFailure(
    outboxId: number,
    snap: SlackConversation & { userId: string },
    code: string,
  ): Promise<void> {
    const conversationId = snap.conversationId;
    const dm = await this.client.conversations.open({ users: snap.userId });
    const channel = dm.channel?.id;
    if (!channel) return;
    const text =
      code === "not_in_channel" || code === "channel_not_found"
        ? t(this.locale, "notice.not_in_channel", { channel: `<#${snap.channelId}>` })
        : t(this.locale, "notice.delivery_failed", { code, project: snap.projectName });
    // One notice per conversation and cause, however many events fail.
    await this.poster.postOnce({
      key: `failure:${conversationId}:${code}`,
      outboxId,
      conversationId,
      purpose: "notice",
      channel,
      threadTs: null,
      text,
    });
  }

  /** The conversation's state with its Slack address (where it was asked, what the bot posted); null outside Slack. */
  private async load(conversationId: string): Promise<SlackConversation | null> {
    const view = await conversationView(this.db, conversationId);
    const address = await this.addresses.get("conversation", conversationId);
    if (!view || !address) return null;
    return {
      ...view,
      now: this.clock.now(),
      channelId: address.channel,
      threadTs: address.threadTs,
      statusTs: address.statusTs,
      origin: address.origin ?? null,
      decisionLink: view.decisionId ? await this.cardLink(`decision:${view.decisionId}`) : null,
      approvalLink: view.approvalId ? await this.cardLink(`approval:${view.approvalId}`) : null,
    };
  }

  /** The permalink of a card (a decision's question `decision:<id>`, an approval `approval:<id>`), once posted. */
  private async cardLink(key: string): Promise<string | null> {
    const known = this.questionLinks.get(key);
    if (known) return known;
    const card = await this.poster.posts.find(key);
    if (card?.status !== "posted" || !card.ts) return null;
    const link = await this.client.chat.getPermalink({ channel: card.channel, message_ts: card.ts });
    if (link.permalink) this.questionLinks.set(key, link.permalink);
    return link.permalink ?? null;
  }

  /**
   * Re-renders the state message after an approval's card was posted or answered: the turn
   * waits for it (linked), or runs again.
   */
  async refreshAfterApproval(outboxId: number, conversationId: string): Promise<void> {
    const snap = await this.load(conversationId);
    if (!snap?.statusTs) return;
    await inLocale(await this.locales.of(snap.userId), () => this.refresh(outboxId, snap));
  }

  /**
   * Shows a just-posted decision's question in the state message (its link): the status said
   * "waiting" when the turn finished, before the card existed.
   */
  async refreshWithQuestion(outboxId: number, conversationId: string): Promise<void> {
    const snap = await this.load(conversationId);
    if (!snap?.decisionLink) return;
    await inLocale(await this.locales.of(snap.userId), () => this.refresh(outboxId, snap));
  }

  /** Posts the state message if it does not exist yet; returns the conversation with its thread. */
  private async ensureStateMessage(outboxId: number, snap: SlackConversation): Promise<SlackConversation> {
    if (snap.statusTs) return snap;
    const view = conversationRoot(this.locale, snap);
    const ts = await this.poster.postOnce({
      key: `status:${snap.conversationId}`,
      outboxId,
      conversationId: snap.conversationId,
      purpose: "status",
      channel: snap.channelId,
      threadTs: snap.threadTs, // null for /codex ask: the state message is the thread's root
      text: view.text,
      blocks: view.blocks,
    });
    const threadTs = snap.threadTs ?? ts;
    await this.addresses.record("conversation", snap.conversationId, {
      channel: snap.channelId,
      threadTs,
      statusTs: ts,
    });
    this.lastEdit.set(snap.conversationId, this.clock.now());
    return { ...snap, statusTs: ts, threadTs };
  }

  /**
   * Re-renders the state message, at most once a second and within the workspace's budget (where
   * a change of state goes before mere progress).
   */
  private async refresh(
    outboxId: number,
    snap: SlackConversation,
    urgent = true,
  ): Promise<SlackConversation> {
    if (!snap.statusTs) return this.ensureStateMessage(outboxId, snap);
    const last = this.lastEdit.get(snap.conversationId) ?? 0;
    const wait = last + MIN_EDIT_INTERVAL_MS - this.clock.now();
    if (wait > 0) throw new Defer(wait);
    const budget = await this.turns.editWait(urgent);
    // Looked at again soon: the turn may have ended meanwhile, which makes the edit urgent.
    if (budget > 0) throw new Defer(Math.min(budget, BUDGET_RETRY_MS));
    const view = conversationRoot(this.locale, snap);
    await this.client.chat.update({
      channel: snap.channelId,
      ts: snap.statusTs,
      text: view.text,
      blocks: view.blocks,
    });
    this.lastEdit.set(snap.conversationId, this.clock.now());
    return snap;
  }

  /** The answer (done), or a notice (failed, cancelled), in the thread. */
  private async postOutcome(
    outboxId: number,
    snap: SlackConversation,
    event: EventOf<"conversation.finished">,
  ): Promise<void> {
    const base = {
      outboxId,
      conversationId: snap.conversationId,
      channel: snap.channelId,
      threadTs: snap.threadTs,
    };
    const status = event.status;
    // A stop is told once, to whoever pressed Stop (with what it cancelled), and on the state
    // message: one notice per cancelled item said "Agent stopped." as many times.
    if (status === "cancelled") return;
    if (status === "done") {
      const messageId = event.messageId;
      const content = messageId ? await answerText(this.db, messageId) : null;
      // A decision's marker is for codexpi: its question is posted with its buttons instead.
      const answer = agentAnswer(this.locale, withoutDecisionMarker(content ?? ""));
      for (const [i, m] of answer.messages.entries()) {
        await this.poster.postOnce({
          ...base,
          key: `${outboxId}:answer:${i}`,
          purpose: "answer",
          text: m.text,
          blocks: m.blocks,
        });
      }
      if (answer.file) await this.uploadOnce(`${outboxId}:file`, base, answer.file);
      return;
    }
    const item = await turnFailure(this.db, event.queueId);
    // The catalog explains the failure in the reader's language; Codex's own message is kept
    // when it is the cause (it is data from the agent: escaped, never formatting).
    const code = `failure.${item?.errorCode ?? ""}`;
    const reason = isMessageKey(code) ? t(this.locale, code) : "";
    const detail =
      item?.errorCode === "codex_failed" || !reason
        ? escapeClip(failureText(this.locale, item?.error) ?? "?", 1500)
        : "";
    const text = t(this.locale, "notice.failed", { error: [reason, detail].filter(Boolean).join(" — ") });
    await this.poster.postOnce({ ...base, key: `${outboxId}:notice`, purpose: "notice", text });
  }

  /**
   * A DM to the author when their task ends in a channel (never for a DM conversation, which is
   * already theirs, nor for a stop they asked), if their preferences say so. A failure that
   * opened an incident the author gets by DM is told by that DM alone (one DM per failure).
   */
  private async pingAuthor(
    outboxId: number,
    snap: SlackConversation,
    event: EventOf<"conversation.finished">,
  ): Promise<void> {
    if (
      event.status === "cancelled" ||
      snap.decisionOpen || // not over: the decision's own DM says what waits
      snap.origin === "dm" ||
      !snap.userId ||
      !/^[UW][A-Z0-9]+$/.test(snap.userId)
    )
      return;
    const preferences = await getPreferences(this.db, snap.userId);
    if (!preferences.task_completion) return;
    if (
      event.status === "failed" &&
      preferences.incidents &&
      (await itemOpenedIncident(this.db, event.queueId))
    )
      return;
    const key = `${outboxId}:ping`;
    if (await this.poster.postedTs(key)) return;
    const link = await this.client.chat.getPermalink({
      channel: snap.channelId,
      message_ts: snap.threadTs as string,
    });
    const dm = await this.client.conversations.open({ users: snap.userId });
    if (!dm.channel?.id) return;
    const text = t(this.locale, event.status === "done" ? "notice.task_done" : "notice.task_failed", {
      project: escapeClip(snap.projectName, 100),
      link: link.permalink ? `<${link.permalink}|${t(this.locale, "notice.see_thread")}>` : "",
    });
    await this.poster.postOnce({
      key,
      outboxId,
      conversationId: snap.conversationId,
      purpose: "notice",
      channel: dm.channel.id,
      threadTs: null,
      text,
    });
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
      const replies = await this.client.conversations.replies({
        channel: base.channel,
        ts: base.threadTs,
        limit: 200,
      });
      const already = (replies.messages ?? []).some((m) => (m.files ?? []).some((f) => f.name === filename));
      if (already) return this.markFilePosted(key, base);
    }
    // Two literals, not one with an optional thread: the client's types pair `thread_ts` with a channel.
    const destination = base.threadTs
      ? { channel_id: base.channel, thread_ts: base.threadTs }
      : { channel_id: base.channel };
    await this.client.filesUploadV2({ ...destination, filename, title: file.title, content: file.content });
    await this.markFilePosted(key, base);
  }

  private async markFilePosted(
    key: string,
    base: { outboxId: number; conversationId: string; channel: string; threadTs: string | null },
  ) {
    await this.poster.posts.recordFile({ key, ...base });
    this.logger.debug({ key }, "file uploaded");
  }
}

/** A conversation's running turn, as the progress renderers need it. */
const turnOf = (snap: SlackConversation): TurnOnSlack => ({
  conversationId: snap.conversationId,
  queueId: snap.queueId,
  status: snap.status,
  channel: snap.channelId,
  threadTs: snap.threadTs,
  userId: snap.userId,
  progress: snap.progress,
  startedAt: snap.startedAt,
});
