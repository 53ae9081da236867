import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Clock } from "../engine/clock.js";
import type { Database } from "../engine/database.js";
import { pendingApprovalsFor } from "../engine/approvals/view.js";
import type { Actor } from "../engine/projects/projects.js";
import type { PendingApprovalItem } from "../views/approvals.js";
import { SlackPosts } from "./store/posts.js";

/**
 * The pending approvals `actor` may answer, each with the permalink of its card once the notifier
 * posted it (`approval:<id>`): the card is where it is answered. A link Slack will not give is
 * left out, never the approval.
 */
export async function pendingApprovalItems(
  db: Database,
  clock: Clock,
  client: WebClient,
  actor: Actor,
  logger: Logger,
): Promise<PendingApprovalItem[]> {
  const posts = new SlackPosts(db, clock);
  const items: PendingApprovalItem[] = [];
  for (const approval of await pendingApprovalsFor(db, actor)) {
    const card = await posts.find(`approval:${approval.id}`);
    let link: string | null = null;
    if (card?.status === "posted" && card.ts) {
      link = await client.chat
        .getPermalink({ channel: card.channel, message_ts: card.ts })
        .then((r) => r.permalink ?? null)
        .catch((err) => {
          logger.warn({ err, approvalId: approval.id }, "no permalink for an approval card");
          return null;
        });
    }
    items.push({ approval, link });
  }
  return items;
}
