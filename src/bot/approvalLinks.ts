import type { WebClient } from "@slack/web-api";
import type { Actor } from "../engine/api/model.js";
import type { PendingApprovalItem } from "../views/approvals.js";
import type { BotContext } from "./context.js";

/**
 * The pending approvals `actor` may answer, each with the permalink of its card once the notifier
 * posted it (`approval:<id>`): the card is where it is answered. A link Slack will not give is
 * left out, never the approval.
 */
export async function pendingApprovalItems(
  ctx: Pick<BotContext, "api" | "posts" | "logger">,
  client: WebClient,
  actor: Actor,
): Promise<PendingApprovalItem[]> {
  const items: PendingApprovalItem[] = [];
  for (const approval of await ctx.api.approvals.pendingFor(actor)) {
    const card = await ctx.posts.find(`approval:${approval.id}`);
    let link: string | null = null;
    if (card?.status === "posted" && card.ts) {
      link = await client.chat
        .getPermalink({ channel: card.channel, message_ts: card.ts })
        .then((r) => r.permalink ?? null)
        .catch((err) => {
          ctx.logger.warn({ err, approvalId: approval.id }, "no permalink for an approval card");
          return null;
        });
    }
    items.push({ approval, link });
  }
  return items;
}
