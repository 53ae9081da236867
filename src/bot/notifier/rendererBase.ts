import { type Clock, systemClock } from "../../engine/api/runtime.js";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { EngineApi } from "../../engine/api/index.js";
import { t, type Locale } from "../../i18n/index.js";
import type { SlackMessage } from "../../views/blocks.js";
import type { InteractiveMessage } from "../../views/interactive.js";
import type { SlackAddresses, SubjectKind } from "../store/addresses.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import type { SlackPoster } from "./poster.js";

/** What every renderer is built from (one options object, not positional arguments). */
export interface RendererDeps {
  /** The engine, through its API: what a renderer reads of conversations, runs, decisions. */
  api: EngineApi;
  client: WebClient;
  poster: SlackPoster;
  addresses: SlackAddresses;
  /** The language of whoever has none of their own (CODEXPI_LOCALE). */
  fallback: Locale;
  clock?: Clock;
  /** Each person's language; without it every message is in `fallback`. */
  locales?: UserLocales;
  logger?: Logger;
}

/** Where a post lands and what it belongs to (the fields every post of one subject shares). */
export interface PostPlace {
  outboxId: number;
  conversationId: string | null;
  channel: string;
  threadTs: string | null;
}

/** What a message shows: its fallback text and its blocks (buttons included). */
export type MessageView = SlackMessage | InteractiveMessage;

/** A Slack user id (a bot, a CLI user or an empty id gets no DM). */
export const isSlackUser = (id: string | null | undefined): id is string =>
  Boolean(id && /^[UW][A-Z0-9]+$/.test(id));

/** A post key as a file name: the key survives in the name, so a crash's upload is found again. */
export const fileNameOfKey = (key: string): string => key.replace(/[^\w.-]/g, "-");

/**
 * What the renderers share: the reader's language, DMs, edits, links to a message, the thread of
 * a conversation, the state message of a subject, once-only pings, failure notices and uploads.
 * Every post goes through the poster (exactly once, by key); every edit is `chat.update`.
 */
export class RendererBase {
  readonly api: EngineApi;
  readonly client: WebClient;
  readonly poster: SlackPoster;
  readonly addresses: SlackAddresses;
  readonly clock: Clock;

  constructor(private readonly deps: RendererDeps) {
    this.api = deps.api;
    this.client = deps.client;
    this.poster = deps.poster;
    this.addresses = deps.addresses;
    this.clock = deps.clock ?? systemClock;
  }

  /** The language of the person the event is for, set around each event (`inLocaleOf`). */
  get locale(): Locale {
    return currentLocale(this.deps.fallback);
  }

  /** Runs `fn` in a person's language: their thread posts and DMs read in it. */
  async inLocaleOf<T>(userId: string | null | undefined, fn: () => Promise<T>): Promise<T> {
    const locales = this.deps.locales;
    return inLocale(locales ? await locales.of(userId) : this.deps.fallback, fn);
  }

  /** Of these entries, those of conversations started from Slack (the others have no thread). */
  async fromSlackConversations(
    entries: Array<{ id: number; event: { conversationId: string } }>,
  ): Promise<Set<number>> {
    const ids = [...new Set(entries.map((e) => e.event.conversationId))];
    if (!ids.length) return new Set();
    const inSlack = await this.addresses.addressed("conversation", ids);
    return new Set(entries.filter((e) => inSlack.has(e.event.conversationId)).map((e) => e.id));
  }

  /** The conversation's thread: where it was asked, or the root the bot posted for it. */
  async threadOf(conversationId: string): Promise<string | null> {
    return (await this.addresses.get("conversation", conversationId))?.threadTs ?? null;
  }

  /** The DM channel with a person, or undefined when Slack gives none. */
  async openDm(userId: string): Promise<string | undefined> {
    const res = await this.client.conversations.open({ users: userId });
    return res.channel?.id;
  }

  /** The DM channel with a person; throws when Slack gives none (the event is retried). */
  async dm(userId: string): Promise<string> {
    const channel = await this.openDm(userId);
    if (!channel) throw new Error("conversations.open returned no channel");
    return channel;
  }

  /** Replaces a posted message's content. */
  async edit(channel: string, ts: string, view: MessageView): Promise<void> {
    await this.client.chat.update({ channel, ts, text: view.text, blocks: view.blocks });
  }

  /** Edits the message posted under `key`; false when there is none (nothing to edit). */
  async editPosted(key: string, view: MessageView): Promise<boolean> {
    const posted = await this.poster.posts.find(key);
    if (posted?.status !== "posted" || !posted.ts) return false;
    await this.edit(posted.channel, posted.ts, view);
    return true;
  }

  /**
   * Posts a subject's state message once and records it as the subject's Slack address: its
   * thread is the one given, else the message itself (the thread's root).
   */
  async postStateMessage(
    subject: { kind: SubjectKind; id: string; key: string },
    place: PostPlace,
    view: MessageView,
  ): Promise<{ ts: string; threadTs: string }> {
    const ts = await this.poster.postOnce({
      ...place,
      key: subject.key,
      purpose: "status",
      text: view.text,
      blocks: view.blocks,
    });
    const threadTs = place.threadTs ?? ts;
    await this.addresses.record(subject.kind, subject.id, { channel: place.channel, threadTs, statusTs: ts });
    return { ts, threadTs };
  }

  /**
   * A DM to a person pointing at a message (`at`), once per key: `text` gets the link to it
   * ("see the thread"), or "" when Slack gives no permalink.
   */
  async pingOnce(o: {
    key: string;
    outboxId: number;
    conversationId: string;
    userId: string;
    at: { channel: string; ts: string };
    text: (link: string) => string;
  }): Promise<void> {
    if (await this.poster.postedTs(o.key)) return;
    const link = await this.client.chat.getPermalink({ channel: o.at.channel, message_ts: o.at.ts });
    const text = o.text(link.permalink ? `<${link.permalink}|${t(this.locale, "notice.see_thread")}>` : "");
    await this.poster.postOnce({
      key: o.key,
      outboxId: o.outboxId,
      conversationId: o.conversationId,
      purpose: "notice",
      channel: await this.dm(o.userId),
      threadTs: null,
      text,
    });
  }

  /**
   * Tells a person by DM that their subject's messages could not be delivered, once per key: the
   * bot's absence from the channel (`where`, as mrkdwn) in the catalog's words, any other cause
   * by `otherwise`. Nothing when Slack opens no DM.
   */
  async tellDeliveryFailure(o: {
    key: string;
    outboxId: number;
    conversationId: string | null;
    userId: string;
    code: string;
    where: string;
    otherwise: () => string;
  }): Promise<void> {
    const channel = await this.openDm(o.userId);
    if (!channel) return;
    const text =
      o.code === "not_in_channel" || o.code === "channel_not_found"
        ? t(this.locale, "notice.not_in_channel", { channel: o.where })
        : o.otherwise();
    await this.poster.postOnce({
      key: o.key,
      outboxId: o.outboxId,
      conversationId: o.conversationId,
      purpose: "notice",
      channel,
      threadTs: null,
      text,
    });
  }

  /**
   * Uploads a file once, recorded under `key`: its name carries the key, so that after a crash
   * between the upload and the record it is found again in the thread instead of uploaded twice.
   */
  async uploadOnce(
    key: string,
    place: PostPlace,
    file: { filename: string; title: string; content: string },
  ): Promise<void> {
    if (await this.poster.postedTs(key)) return;
    if (!place.threadTs || !(await this.inThread(place.channel, place.threadTs, file.filename))) {
      // Two literals, not one with an optional thread: the client's types pair `thread_ts` with a channel.
      const destination = place.threadTs
        ? { channel_id: place.channel, thread_ts: place.threadTs }
        : { channel_id: place.channel };
      await this.client.filesUploadV2({ ...destination, ...file });
    }
    await this.poster.posts.recordFile({ key, ...place });
    this.deps.logger?.debug({ key }, "file uploaded");
  }

  /** Whether a file of that name is in the thread already. */
  private async inThread(channel: string, threadTs: string, filename: string): Promise<boolean> {
    const replies = await this.client.conversations.replies({ channel, ts: threadTs, limit: 200 });
    return (replies.messages ?? []).some((m) => (m.files ?? []).some((f) => f.name === filename));
  }
}
