import type { Clock } from "../../engine/api/runtime.js";
import type { Progress } from "../../engine/api/model.js";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Locale } from "../../i18n/index.js";
import { InterimPosts } from "./interimPosts.js";
import type { SlackPoster } from "./poster.js";
import { SlackBudget } from "./slackBudget.js";
import { TurnStreams } from "./turnStreams.js";

/** A conversation's running turn, as the progress renderers need it. */
export interface TurnOnSlack {
  conversationId: string;
  /** The running queue item (the turn), or null when none runs. */
  queueId: string | null;
  status: string;
  channel: string;
  threadTs: string | null;
  userId: string | null;
  progress: Progress | null;
  startedAt: number | null;
}

/** Settings of the progress renderers (from the configuration). */
export interface TurnProgressSettings {
  streaming: "auto" | "off";
  interimMs: number;
  /** SLACK_TEAM_ID when set; else the bot token's workspace (auth.test). */
  teamId?: string;
  budget?: SlackBudget;
  /** A "done" DM only for turns that ran at least this long (CODEXPI_DONE_DM_SECONDS). */
  doneDmAfterMs?: number;
}

/**
 * The two renderers of a running turn's progress besides its status message, behind one budget per
 * workspace: a Slack stream in the thread where the workspace allows it, else (the fallback)
 * interim messages posted in the thread. ConversationMessages calls it at each event of the turn.
 */
export class TurnProgress {
  readonly budget: SlackBudget;
  private readonly streams: TurnStreams;
  private readonly interim: InterimPosts;
  private teamId: Promise<string | null> | null = null;

  constructor(
    private readonly client: WebClient,
    poster: SlackPoster,
    clock: Clock,
    logger: Logger,
    private readonly settings: TurnProgressSettings,
  ) {
    this.budget = settings.budget ?? new SlackBudget(() => clock.now());
    this.streams = new TurnStreams({
      client,
      posts: poster.posts,
      budget: this.budget,
      clock,
      logger,
      mode: settings.streaming,
      team: () => this.team(),
    });
    this.interim = new InterimPosts(
      poster,
      settings.interimMs,
      () => clock.now(),
      async (channel) => {
        const team = await this.team();
        return team === null || this.budget.take(team, "chat.postMessage", channel) === 0;
      },
    );
  }

  /**
   * Shows a running turn's progress: in its stream (true: the status message need not repeat each
   * activity), else by interim posts (false: the status message shows it). Throws Defer when the
   * stream's budget is short.
   */
  async show(outboxId: number, turn: TurnOnSlack, locale: Locale): Promise<boolean> {
    if (turn.status !== "running" || !turn.queueId || !turn.threadTs) return false;
    const t = { ...turn, queueId: turn.queueId, threadTs: turn.threadTs, outboxId };
    const shown = await this.streams.show(t, locale);
    if (shown === "streamed") return true;
    // Nothing worth a stream yet (no activity): nor an interim post.
    if (shown === "waiting") return false;
    await this.interim.post(t, locale);
    return false;
  }

  /** Whether the turn is streamed by this process now. */
  isStreaming(queueId: string | null): boolean {
    return queueId !== null && this.streams.isLive(queueId);
  }

  /**
   * Ends the stream of a finished turn; throws Defer while the budget is short. Before its answer
   * (`answerWaits`), `later` when the stop cannot be afforded soon: post the answer, then call again.
   */
  async end(
    outboxId: number,
    queueId: string,
    turn: TurnOnSlack,
    locale: Locale,
    answerWaits = false,
    endedAs: "done" | "failed" | "cancelled" = "done",
  ): Promise<"stopped" | "later"> {
    if (!turn.threadTs) return "stopped";
    const t = { ...turn, queueId, threadTs: turn.threadTs, outboxId };
    return this.streams.end(t, locale, answerWaits, endedAs);
  }

  /**
   * Milliseconds to wait before the status message may be edited again (0: now), by the
   * workspace's budget; `urgent` for a change of state, which progress edits leave room for.
   */
  async editWait(urgent: boolean): Promise<number> {
    const team = await this.team();
    return team === null ? 0 : this.budget.take(team, "chat.update", undefined, urgent);
  }

  private team(): Promise<string | null> {
    if (this.settings.teamId) return Promise.resolve(this.settings.teamId);
    this.teamId ??= this.client.auth
      .test()
      .then((r) => r.team_id ?? null)
      .catch(() => {
        this.teamId = null; // asked again at the next call
        return null;
      });
    return this.teamId;
  }
}
