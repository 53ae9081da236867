import type { Logger } from "pino";
import type { AfterAck } from "./afterAck.js";
import type { PendingAcks } from "./pendingAcks.js";
import type { ChannelMembers } from "./channelMembers.js";
import type { SlackAddresses } from "./store/addresses.js";
import type { SlackChannelDefaults } from "./store/channelDefaults.js";
import type { HandledEvents } from "./store/events.js";
import type { UserLocales } from "./userLocales.js";
import type { Config } from "../config.js";
import type { EngineApi } from "../engine/api/index.js";
import { type Actor, isEngineError } from "../engine/api/model.js";
import type { SlackPosts } from "./store/posts.js";
import type { ForgeFrontEnd } from "../forge/index.js";
import type { DisplayNames, ThreadReader } from "./threadContext/index.js";
import type { SlackThreadNotices } from "./store/threadNotices.js";
import { engineErrorText, t, type Locale } from "../i18n/index.js";
import { rightsText } from "../views/rights.js";
import { decisionAnsweredText } from "../views/decisions.js";

/** What every listener needs: the engine, who the admins are, the language, the bot's identity. */
export interface BotContext {
  /** The engine, through its API only: every method checks the person it acts for. */
  api: EngineApi;
  config: Config;
  logger: Logger;
  /** The language of the person the current request is from (see userLocales.ts), else `CODEXPI_LOCALE`. */
  readonly locale: Locale;
  /** Each Slack user's language. */
  locales: UserLocales;
  botUserId: string;
  afterAck: AfterAck;
  /** `/codex ask` acknowledgements removed once their conversation's root is posted. */
  acks: PendingAcks;
  /** Where conversations, runs and orchestrations live in Slack (the bot's own rows). */
  addresses: SlackAddresses;
  /** What the bot posted, by key (the bot's own rows). */
  posts: SlackPosts;
  /** Each channel's default project (the bot's own rows). */
  channelDefaults: SlackChannelDefaults;
  /** Slack events already handled (retries and double deliveries are dropped). */
  handledEvents: HandledEvents;
  /** Who belongs to the channels that open a project to their members (reading only). */
  channelMembers: ChannelMembers;
  /** Reads the Slack thread a person called the bot into, as data for the agent. */
  threadReader: ThreadReader;
  /** People's Slack display names (cached): the agent is told who wrote a teammate's follow-up. */
  names: DisplayNames;
  /** Who was told, once per conversation thread, what they may do there (the bot's own rows). */
  threadNotices: SlackThreadNotices;
  /** The forge front end's link codes (`/codex forge link`), when it runs (issue 33). */
  forge?: Pick<ForgeFrontEnd, "linkCode" | "changeSettings">;
}

/** The Slack user as the engine sees them, in the language of the request they made. */
export function actorOf(ctx: BotContext, userId: string): Actor {
  return { userId, isAdmin: ctx.config.admins.includes(userId), locale: ctx.locale };
}

/**
 * The Slack user as the engine sees them, with the channels they belong to among those that open
 * a project to their members (they may read it there). For anything that reads or lists; the
 * engine still checks prompt rights without regard to them.
 */
export function readerOf(ctx: BotContext, userId: string, fromChannel?: string | null): Promise<Actor> {
  return ctx.channelMembers.reader(actorOf(ctx, userId), fromChannel);
}

/** The sentence a person reads for an error: engine errors from the catalog, anything else generic. */
export function errorText(ctx: BotContext, err: unknown): string {
  if (isEngineError(err))
    return (
      rightsText(ctx.locale, err) ?? decisionAnsweredText(ctx.locale, err) ?? engineErrorText(ctx.locale, err)
    );
  ctx.logger.error({ err }, "unexpected error in a Slack listener");
  return t(ctx.locale, "error.internal");
}
