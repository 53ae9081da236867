import type { App, BlockButtonAction } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { t } from "../../i18n/index.js";
import { ACTIONS } from "../../views/ids.js";
import { errorText, readerOf, type BotContext } from "../context.js";
import type { Actor } from "../../engine/api/model.js";

// The buttons of a lane's card (issue 18). Each click is checked by the engine against the Slack
// user who clicked (the button's value is only the conversation's id); a refusal or a failure is
// answered to the clicker alone, and what changed is shown by the card itself, redrawn by the
// notifier on the lane's `lane.updated` event.

type LaneAction = (
  ctx: BotContext,
  actor: Actor,
  conversationId: string,
  client: WebClient,
) => Promise<string | null>;

/** The Slack thread of a conversation, as a link a pull request's body can carry. */
async function threadUrl(ctx: BotContext, client: WebClient, conversationId: string): Promise<string | null> {
  const address = await ctx.addresses.get("conversation", conversationId);
  const ts = address?.threadTs ?? address?.statusTs;
  if (!address || !ts) return null;
  const link = await client.chat.getPermalink({ channel: address.channel, message_ts: ts }).catch(() => null);
  return link?.permalink ?? null;
}

const ACTIONS_OF_LANES: Array<[string, LaneAction]> = [
  [
    ACTIONS.laneMerge,
    async (ctx, actor, id) => {
      const r = await ctx.api.lanes.merge(actor, id);
      return r.merged ? null : t(ctx.locale, "lane.reply.conflict", { n: r.conflicts.length });
    },
  ],
  [
    ACTIONS.lanePush,
    async (ctx, actor, id) => {
      await ctx.api.lanes.push(actor, id);
      return null;
    },
  ],
  [
    ACTIONS.lanePullRequest,
    async (ctx, actor, id, client) => {
      await ctx.api.lanes.openPullRequest(actor, id, {
        threadUrl: await threadUrl(ctx, client, id),
        requester: `<@${actor.userId}>`,
      });
      return null;
    },
  ],
  [
    ACTIONS.laneDiscard,
    async (ctx, actor, id) => {
      await ctx.api.lanes.discard(actor, id);
      return null;
    },
  ],
  [
    ACTIONS.laneAskMerge,
    async (ctx, actor, id) => {
      const r = await ctx.api.lanes.askToMerge(actor, id);
      return t(ctx.locale, `lane.reply.ask_${r}`);
    },
  ],
];

export function registerLaneActions(app: App, ctx: BotContext): void {
  for (const [actionId, run] of ACTIONS_OF_LANES) {
    app.action<BlockButtonAction>(actionId, async ({ ack, body, action, respond, client }) => {
      await ack();
      ctx.afterAck.run(async () => {
        let text: string | null;
        try {
          text = await run(ctx, await readerOf(ctx, body.user.id), action.value ?? "", client);
        } catch (err) {
          text = errorText(ctx, err);
        }
        if (text === null) return;
        respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
          ctx.logger.warn({ err }, "could not answer a lane button"),
        );
      });
    });
  }
}
