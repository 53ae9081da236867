import type { Progress } from "../../engine/api/model.js";
import { createHash } from "node:crypto";
import type { Locale } from "../../i18n/index.js";
import { interimMessage } from "../../views/progress.js";
import type { SlackPoster } from "./poster.js";

/** What decides whether an interim message is due: the turn's progress and its last interim post. */
export interface InterimInput {
  progress: Progress | null;
  /** When the turn started (ms); null when unknown. */
  startedAt: number | null;
  now: number;
  /** At most one post per this many ms; 0 disables interim posts. */
  intervalMs: number;
  /** The turn's last interim post: when, and the key of its text. */
  last: { at: number; key: string } | null;
  /** The key a text would be posted under. */
  keyOf: (text: string) => string;
}

/**
 * The interim text to post now, or null. Only a message the agent has moved past (a later activity
 * than writing it): the message it is still writing may be its answer, which the outcome posts —
 * so an interim post never repeats the final answer. Only once the turn has lasted the interval,
 * and at most once per interval; a text already posted is never posted again.
 */
export function interimDue(i: InterimInput): string | null {
  const text = i.progress?.text?.trim();
  if (!text || i.intervalMs <= 0 || i.progress?.kind === "writing") return null;
  if (i.startedAt === null || i.now - i.startedAt < i.intervalMs) return null;
  if (i.last && (i.last.key === i.keyOf(text) || i.now - i.last.at < i.intervalMs)) return null;
  return text;
}

/** A running turn as interim posts see it. */
export interface InterimTurn {
  conversationId: string;
  queueId: string;
  channel: string;
  threadTs: string;
  progress: Progress | null;
  startedAt: number | null;
  outboxId: number;
}

/**
 * The fallback renderer's part of a long turn: its interim messages posted in the thread, at most
 * one per interval, each exactly once (the poster records the intent first; the key carries a hash
 * of the text, so a restart neither loses nor repeats one).
 */
export class InterimPosts {
  constructor(
    private readonly poster: SlackPoster,
    private readonly intervalMs: number,
    private readonly now: () => number,
    /** The workspace's budget for a post in this channel: false to try again at a later event. */
    private readonly admit: (channel: string) => Promise<boolean> = async () => true,
  ) {}

  /** Posts the turn's interim message if one is due; true when it posted. */
  async post(turn: InterimTurn, locale: Locale): Promise<boolean> {
    if (this.intervalMs <= 0) return false;
    const prefix = `interim:${turn.queueId}:`;
    const keyOf = (text: string) =>
      `${prefix}${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
    const latest = await this.poster.posts.latestWithPrefix(prefix);
    const current = turn.progress?.text?.trim();
    // A post whose outcome is unknown (we died mid-call) is settled before anything else.
    const unsettled = latest?.status === "sending" && current && latest.key === keyOf(current);
    const text = unsettled
      ? current
      : interimDue({
          progress: turn.progress,
          startedAt: turn.startedAt,
          now: this.now(),
          intervalMs: this.intervalMs,
          last: latest ? { at: latest.createdAt, key: latest.key } : null,
          keyOf,
        });
    if (!text || !(await this.admit(turn.channel))) return false;
    const message = interimMessage(locale, text);
    await this.poster.postOnce({
      key: keyOf(text),
      outboxId: turn.outboxId,
      conversationId: turn.conversationId,
      purpose: "interim",
      channel: turn.channel,
      threadTs: turn.threadTs,
      text: message.text,
      blocks: message.blocks,
    });
    return true;
  }
}
