import type { Clock } from "../../engine/api/runtime.js";
import type { Progress } from "../../engine/api/model.js";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Locale } from "../../i18n/index.js";
import { keepAliveChunk, nothingStreamed, progressChunks, type Streamed } from "../../views/streamChunks.js";
import { classifySlackError } from "../slackErrors.js";
import type { SlackPosts } from "../store/posts.js";
import type { SlackBudget } from "./slackBudget.js";
import { Defer } from "./defer.js";

/** A running turn as a stream renders it: where its thread is, for whom, and what it does now. */
export interface StreamTurn {
  conversationId: string;
  queueId: string;
  channel: string;
  threadTs: string;
  userId: string | null;
  progress: Progress | null;
  outboxId: number;
}

/** Options of the streams: the Slack client, the budget they share, and how long a refusal holds. */
export interface TurnStreamsOptions {
  client: WebClient;
  posts: SlackPosts;
  budget: SlackBudget;
  clock: Clock;
  logger: Logger;
  mode: "auto" | "off";
  /** The workspace's team id (SLACK_TEAM_ID, else the bot token's own, from auth.test). */
  team: () => Promise<string | null>;
  /** How long a workspace that refused a stream is not asked again (default one hour). */
  refusalMs?: number;
  /** An open stream gets a keep-alive chunk when nothing was appended for this long (default 25 s). */
  keepAliveMs?: number;
}

/** A stream this process opened and renders: what it shows, and when it last took an append. */
interface LiveStream {
  team: string;
  channel: string;
  ts: string;
  sent: Streamed;
  lastAppendAt: number;
}

// Answers that say the workspace (not this thread) cannot stream: remembered for a while.
const WORKSPACE_REFUSALS = new Set([
  "not_allowed",
  "feature_not_enabled",
  "missing_scope",
  "unknown_method",
  "not_allowed_token_type",
  "method_deprecated",
  "no_permission",
  "team_access_not_granted",
  "access_denied",
]);

// A deferred event is looked at again this soon, whatever the wait: its turn may have ended
// meanwhile (the end goes first), and the budget says again how long to wait.
const RETRY_MS = 1_000;
// How long an answer may wait for its stream's stop (Tier 2 is small when many turns end at once).
const ANSWER_GRACE_MS = 2_000;

const streamKey = (queueId: string) => `stream:${queueId}`;
const offKey = (queueId: string) => `stream-off:${queueId}`;
const endKey = (queueId: string) => `stream-end:${queueId}`;
const refusedPrefix = (team: string) => `stream-refused:${team}:`;

/**
 * Slack streams of running turns: one per turn in its thread, opened when the turn starts,
 * appended as its progress changes (plan and activities as tasks, the agent's text as markdown),
 * stopped when it ends — before its answer, which the outbox still posts exactly once. The second
 * renderer of progress beside the edited status message, which takes over for a turn whose stream
 * is refused, expires or fails (`fallback`). Every call goes through the workspace's budget: an
 * append that finds it short throws `Defer`, and the next render sends the newest state at once.
 */
export class TurnStreams {
  private readonly live = new Map<string, LiveStream>();
  private readonly fallen = new Set<string>();
  private readonly refusedUntil = new Map<string, number>();

  constructor(private readonly o: TurnStreamsOptions) {}

  /**
   * Shows the turn's progress in its stream (opening it at its first activity); `fallback` when it
   * has none, `waiting` while the turn has shown nothing a stream would (no stream yet).
   */
  async show(turn: StreamTurn, locale: Locale): Promise<"streamed" | "fallback" | "waiting"> {
    if (this.o.mode === "off" || this.fallen.has(turn.queueId)) return "fallback";
    const live = this.live.get(turn.queueId);
    if (live) return this.append(turn, live, locale);
    if (await this.o.posts.find(offKey(turn.queueId))) {
      this.fallen.add(turn.queueId);
      return "fallback";
    }
    const earlier = await this.o.posts.find(streamKey(turn.queueId));
    // A stream opened before a restart: what it shows is unknown, so it is closed and the edited
    // status takes over rather than repeat or skip text.
    if (earlier) return this.abandon(turn, earlier.ts);
    return this.open(turn, locale);
  }

  /**
   * Ends the turn's stream (if it has one) with its last state; throws Defer while the budget is
   * short. With `answerWaits` (its answer is not posted yet), a stop the budget cannot afford soon
   * answers `later`: the answer goes first, and the stop follows when the budget allows.
   */
  async end(
    turn: StreamTurn,
    locale: Locale,
    answerWaits = false,
    endedAs: "done" | "failed" | "cancelled" = "done",
  ): Promise<"stopped" | "later"> {
    this.fallen.delete(turn.queueId);
    const live = this.live.get(turn.queueId);
    if (!live) {
      // A stream opened before a restart, unless its fallback closed it already.
      const earlier = this.o.mode === "off" ? null : await this.o.posts.find(streamKey(turn.queueId));
      const closed = async () =>
        Boolean(
          (await this.o.posts.find(endKey(turn.queueId))) ?? (await this.o.posts.find(offKey(turn.queueId))),
        );
      if (earlier?.ts && !(await closed())) {
        await this.stopQuietly(turn, earlier.ts);
        await this.mark(endKey(turn.queueId), turn, earlier.ts);
      }
      return "stopped";
    }
    // The last plan and activities, all complete; not the last text, which may be the answer
    // (posted next, by the outbox).
    const last = turn.progress ? { ...turn.progress, text: null } : null;
    const { chunks } = progressChunks(locale, live.sent, last, true, endedAs);
    // The stop comes before the turn's answer: it goes first in the budget.
    const wait = this.o.budget.take(live.team, "chat.stopStream", undefined, true);
    if (wait > 0 && answerWaits && wait > ANSWER_GRACE_MS) return "later";
    if (wait > 0) throw new Defer(Math.min(wait, RETRY_MS));
    try {
      await this.o.client.chat.stopStream({
        channel: live.channel,
        ts: live.ts,
        ...(chunks.length ? { chunks } : {}),
      });
    } catch (err) {
      this.deferIfRateLimited(err, live.team, "chat.stopStream");
      this.o.logger.warn({ err, queueId: turn.queueId }, "stream could not be stopped (expired?)");
    }
    this.live.delete(turn.queueId);
    await this.mark(endKey(turn.queueId), turn, live.ts);
    return "stopped";
  }

  /** Whether this process streams the turn now (its status message need not show each activity). */
  isLive(queueId: string): boolean {
    return this.live.has(queueId);
  }

  private async open(turn: StreamTurn, locale: Locale): Promise<"streamed" | "fallback" | "waiting"> {
    const team = await this.o.team().catch(() => null);
    if (!team || (await this.refusing(team))) return this.fallBack(turn, false);
    // Tier 2 is small: a turn that finds it short shows its progress on the status message for
    // now, and tries again at its next event (the budget is taken below, once there is something to show).
    const first = progressChunks(locale, nothingStreamed(), turn.progress);
    // Opened at the turn's first real activity (a command, a plan, text it wrote before working
    // on): a turn that only thinks and answers has no stream at all, not one whose only task is
    // "starting" — its answer alone is posted.
    if (!first.chunks.length) return "waiting";
    if (this.o.budget.take(team, "chat.startStream") > 0) return "fallback";
    const opening = first.chunks;
    const next = first.next;
    await this.o.posts.intend({
      key: streamKey(turn.queueId),
      outboxId: turn.outboxId,
      conversationId: turn.conversationId,
      purpose: "stream",
      channel: turn.channel,
      threadTs: turn.threadTs,
    });
    let ts: string;
    try {
      const res = await this.o.client.chat.startStream({
        channel: turn.channel,
        thread_ts: turn.threadTs,
        chunks: opening,
        ...(turn.userId && /^[UW][A-Z0-9]+$/.test(turn.userId)
          ? { recipient_user_id: turn.userId, recipient_team_id: team }
          : {}),
      });
      ts = res.ts as string;
    } catch (err) {
      return this.refused(turn, team, err);
    }
    await this.o.posts.markPosted(streamKey(turn.queueId), ts);
    this.live.set(turn.queueId, {
      team,
      channel: turn.channel,
      ts,
      sent: next,
      lastAppendAt: this.o.clock.now(),
    });
    return "streamed";
  }

  private async refused(turn: StreamTurn, team: string, err: unknown): Promise<"fallback"> {
    const failure = classifySlackError(err);
    // Slack answered: nothing was started. A lost answer leaves the intent, read as "abandon" later.
    if (failure.kind !== "transient") await this.o.posts.forgetIntent(streamKey(turn.queueId));
    if (failure.kind === "rate_limited") {
      this.o.budget.pause(team, "chat.startStream", failure.retryAfterMs);
      return "fallback";
    }
    if (failure.kind === "permanent" && WORKSPACE_REFUSALS.has(failure.code)) {
      this.refusedUntil.set(team, this.o.clock.now() + this.refusalMs());
      // Recorded too, so that a restarted (or the next coordinating) bot does not ask again.
      await this.mark(`${refusedPrefix(team)}${this.o.clock.now()}`, turn, failure.code);
      this.o.logger.info(
        { team, code: failure.code },
        "Slack refused a stream: edited status messages for a while",
      );
      return this.fallBack(turn, false);
    }
    this.o.logger.warn({ err, queueId: turn.queueId }, "stream could not start: edited status message");
    return this.fallBack(turn, false);
  }

  private refusalMs(): number {
    return this.o.refusalMs ?? 3_600_000;
  }

  /** Whether the workspace refused streams lately (asked of the database once per process). */
  private async refusing(team: string): Promise<boolean> {
    if (!this.refusedUntil.has(team)) {
      const last = await this.o.posts.latestWithPrefix(refusedPrefix(team));
      this.refusedUntil.set(team, last ? last.createdAt + this.refusalMs() : 0);
    }
    return this.o.clock.now() < (this.refusedUntil.get(team) ?? 0);
  }

  private async append(turn: StreamTurn, live: LiveStream, locale: Locale): Promise<"streamed" | "fallback"> {
    const { chunks, next } = progressChunks(locale, live.sent, turn.progress);
    const now = this.o.clock.now();
    if (!chunks.length) {
      const alive =
        now - live.lastAppendAt >= (this.o.keepAliveMs ?? 25_000) && keepAliveChunk(locale, live.sent);
      if (!alive) return "streamed";
      chunks.push(alive);
    }
    this.spend(live.team, "chat.appendStream");
    try {
      await this.o.client.chat.appendStream({ channel: live.channel, ts: live.ts, chunks });
    } catch (err) {
      this.deferIfRateLimited(err, live.team, "chat.appendStream");
      // Expired (a long gap), deleted, or unknown: the status message takes over for this turn.
      this.o.logger.warn({ err, queueId: turn.queueId }, "stream append refused: edited status message");
      this.live.delete(turn.queueId);
      await this.stopQuietly(turn, live.ts);
      return this.fallBack(turn);
    }
    live.sent = next;
    live.lastAppendAt = this.o.clock.now();
    return "streamed";
  }

  /** Takes a call from the budget, or puts the event back until the budget has one. */
  private spend(team: string, method: "chat.appendStream"): void {
    const wait = this.o.budget.take(team, method);
    if (wait > 0) throw new Defer(Math.min(wait, RETRY_MS));
  }

  private deferIfRateLimited(err: unknown, team: string, method: "chat.appendStream" | "chat.stopStream") {
    const failure = classifySlackError(err);
    if (failure.kind !== "rate_limited") return;
    this.o.budget.pause(team, method, failure.retryAfterMs);
    throw new Defer(Math.min(failure.retryAfterMs, RETRY_MS));
  }

  private async abandon(turn: StreamTurn, ts: string | null): Promise<"fallback"> {
    if (ts) await this.stopQuietly(turn, ts);
    return this.fallBack(turn);
  }

  /** Stops a stream we no longer render; a refusal changes nothing (it may have expired already). */
  private async stopQuietly(turn: StreamTurn, ts: string): Promise<void> {
    const team = await this.o.team().catch(() => null);
    if (team && this.o.budget.take(team, "chat.stopStream", undefined, true) > 0) return;
    await this.o.client.chat.stopStream({ channel: turn.channel, ts }).catch(() => undefined);
  }

  /**
   * This turn shows its progress on the edited status message from now on. A turn whose stream
   * was shown and then failed is recorded, so that a restart does not open another mid-turn.
   */
  private async fallBack(turn: StreamTurn, afterStream = true): Promise<"fallback"> {
    this.fallen.add(turn.queueId);
    if (afterStream) await this.mark(offKey(turn.queueId), turn, "off");
    return "fallback";
  }

  private async mark(key: string, turn: StreamTurn, ts: string): Promise<void> {
    if (await this.o.posts.find(key)) return;
    await this.o.posts.intend({
      key,
      outboxId: turn.outboxId,
      conversationId: turn.conversationId,
      purpose: "stream",
      channel: turn.channel,
      threadTs: turn.threadTs,
    });
    await this.o.posts.markPosted(key, ts);
  }
}
