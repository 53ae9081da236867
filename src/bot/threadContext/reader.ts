import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { QuotedMessage, ThreadContext } from "../../engine/api/model.js";
import type { ChannelAccessCheck } from "./channelAccess.js";
import type { DisplayNames } from "./displayNames.js";
import { mentionedUsers, readableText, tsBefore, tsToMillis } from "./slackText.js";

/** Messages asked of Slack per page, and pages at most: a thread longer than that is read in part. */
const PAGE = 200;
const MAX_PAGES = 10;

/** Kinds of message that carry words (joins, topic changes and the like do not). */
const WORDS = new Set([undefined, "thread_broadcast", "file_share", "me_message", "bot_message"]);

/** A message as `conversations.replies` gives it (the fields read here). */
interface SlackMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  subtype?: string;
  text?: string;
  username?: string;
  bot_profile?: { name?: string };
  files?: unknown[];
}

/**
 * The files shared with one message of the context, and who shared them when (the display name
 * the context quotes): the listener stages them with the prompt's own (bot/files).
 */
export interface SharedFiles {
  from: { author: string; at: number };
  files: unknown[];
}

/** What was read of a thread: the context for the engine, and the files of its messages. */
export interface ThreadRead {
  context: ThreadContext | null;
  /** Newest message first. */
  files: SharedFiles[];
}

const NOTHING: ThreadRead = { context: null, files: [] };

/** Which messages of the thread: those before `before`, and after `after` when it is given. */
interface Window {
  kind: ThreadContext["kind"];
  channel: string;
  threadTs: string;
  after: string | null;
  before: string;
}

/**
 * Reads the one thread a person called the bot into (`conversations.replies` on the event's own
 * channel and thread; scopes `channels:history`, `groups:history`, `im:history`,
 * `mpim:history`), as data for the engine: never another thread or channel, a private one only
 * when the bot is a member. The bot's own posts are never quoted; other apps' only as the
 * thread's earlier messages (an alert under which someone asks), never as what people posted
 * since. Counted to the message budget here, so that only the names kept are asked of Slack;
 * the engine cuts to the character budget.
 */
export class ThreadReader {
  constructor(
    private readonly client: WebClient,
    private readonly config: Pick<Config, "threadContext">,
    private readonly botUserId: string,
    private readonly access: ChannelAccessCheck,
    private readonly names: DisplayNames,
    private readonly logger: Logger,
  ) {}

  /** The thread's messages before the mention at `before` (null when there is nothing to give). */
  earlier(channel: string, threadTs: string, before: string): Promise<ThreadRead> {
    return this.read({ kind: "thread", channel, threadTs, after: null, before });
  }

  /** What people posted in the thread after `after` and before the follow-up at `before`. */
  since(channel: string, threadTs: string, after: string, before: string): Promise<ThreadRead> {
    return this.read({ kind: "since", channel, threadTs, after, before });
  }

  private async read(w: Window): Promise<ThreadRead> {
    if (this.config.threadContext.messages === 0) return NOTHING;
    const access = await this.access.of(w.channel);
    if (!access.readable) return { context: unavailable(w.kind, access.reason), files: [] };
    let found: SlackMessage[];
    try {
      found = (await this.fetch(w)).filter((m) => this.quotable(w, m));
    } catch (err) {
      this.logger.warn({ err, channel: w.channel }, "could not read a thread: the prompt runs without it");
      return { context: unavailable(w.kind, "unreadable"), files: [] };
    }
    const { kept, omitted } = this.counted(w, found);
    if (!kept.length && (w.kind === "since" || !access.topic)) return NOTHING;
    const messages = await this.quoted(w, kept);
    const context = {
      kind: w.kind,
      channel: w.kind === "thread" ? { name: access.name, topic: access.topic } : null,
      messages,
      omitted,
    };
    return { context, files: filesOf(kept, messages) };
  }

  private async fetch(w: Window): Promise<SlackMessage[]> {
    const all: SlackMessage[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.client.conversations.replies({
        channel: w.channel,
        ts: w.threadTs,
        limit: PAGE,
        latest: w.before,
        inclusive: false,
        ...(w.after ? { oldest: w.after } : {}),
        ...(cursor ? { cursor } : {}),
      });
      all.push(...((r.messages ?? []) as SlackMessage[]));
      cursor = r.response_metadata?.next_cursor || undefined;
      if (!r.has_more || !cursor) break;
    }
    return all;
  }

  /** Whether a message is quoted: in the window, with words or files, not the bot's own; people only for `since`. */
  private quotable(w: Window, m: SlackMessage): boolean {
    if (!m.ts || !tsBefore(m.ts, w.before) || (w.after && !tsBefore(w.after, m.ts))) return false;
    if (!WORDS.has(m.subtype) || !(m.text?.trim() || m.files?.length)) return false;
    if (m.user === this.botUserId) return false;
    const app = Boolean(m.bot_id) || m.subtype === "bot_message" || !m.user;
    return w.kind === "thread" || !app;
  }

  /** The thread's first message and the newest ones, within the message budget. */
  private counted(w: Window, found: SlackMessage[]): { kept: SlackMessage[]; omitted: number } {
    const max = this.config.threadContext.messages;
    const root = w.kind === "thread" && found[0]?.ts === w.threadTs ? found.slice(0, 1) : [];
    const rest = found.slice(root.length);
    const newest = rest.slice(Math.max(0, rest.length - (max - root.length)));
    return { kept: [...root, ...newest], omitted: rest.length - newest.length };
  }

  private async quoted(w: Window, kept: SlackMessage[]): Promise<QuotedMessage[]> {
    const people = kept.flatMap((m) => [
      ...(m.user && !m.bot_id ? [m.user] : []),
      ...mentionedUsers(m.text ?? ""),
    ]);
    const names = await this.names.of(people);
    return kept.map((m) => ({
      author:
        m.user && !m.bot_id
          ? (names.get(m.user) ?? m.user)
          : `${m.username || m.bot_profile?.name || "app"} (app)`,
      at: tsToMillis(m.ts as string),
      text: readableText(m.text ?? "", (id) => names.get(id)),
      ...(m.ts === w.threadTs ? { root: true } : {}),
    }));
  }
}

/** The files of the messages kept, with the author and time the context quotes: newest first. */
function filesOf(kept: SlackMessage[], quoted: QuotedMessage[]): SharedFiles[] {
  return kept
    .flatMap((m, n) => {
      const q = quoted[n];
      return m.files?.length && q ? [{ from: { author: q.author, at: q.at }, files: m.files }] : [];
    })
    .reverse();
}

function unavailable(kind: ThreadContext["kind"], reason: "not_member" | "unreadable"): ThreadContext {
  return { kind, channel: null, messages: [], omitted: 0, unavailable: reason };
}
