import type { RequestListener } from "node:http";
import type { WebClient } from "@slack/web-api";
import type { Clock, Database } from "../engine/api/runtime.js";
import { FORGE_PATHS, type SlackSide } from "../forge/index.js";
import { SlackAddresses } from "./store/addresses.js";

// The bot's side of the forge front end (src/forge, issue 33): its webhook paths on Slack's HTTP
// listener, and what it needs of Slack — a root message in the project's channel, the
// conversation's address in that thread (the bot's own rows, written in the engine's creating
// transaction, as for a mention), a permalink for the reply on the forge.

/** Bolt custom routes sending the forge paths to the forge front end's handler. */
export function forgeRoutes(listener: RequestListener) {
  return Object.keys(FORGE_PATHS).map((path) => ({ path, method: ["POST"], handler: listener }));
}

/** The Slack side the forge front end is given once the app is up. */
export function forgeSlackSide(client: WebClient, clock: Clock, db: Database): SlackSide {
  return {
    async postRoot(channel, text) {
      const posted = await client.chat.postMessage({
        channel,
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!posted.ts) throw new Error("Slack gave no ts for the forge conversation's root");
      return posted.ts;
    },
    addressFor: (channel, threadTs) => (trx, id) =>
      new SlackAddresses(trx, clock).record("conversation", id, {
        channel,
        threadTs,
        statusTs: null,
        origin: "mention",
      }),
    async postInThread(channel, threadTs, text) {
      await client.chat.postMessage({
        channel,
        thread_ts: threadTs,
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
    },
    async threadOf(conversationId) {
      const address = await new SlackAddresses(db, clock).get("conversation", conversationId);
      const threadTs = address?.threadTs ?? address?.statusTs;
      return address && threadTs ? { channel: address.channel, threadTs } : null;
    },
    async permalink(channel, ts) {
      const r = await client.chat.getPermalink({ channel, message_ts: ts });
      return r.permalink ?? null;
    },
  };
}
