import type { EventOf } from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import type { SlackConversation } from "./conversationSnapshot.js";
import { isSlackUser, type RendererBase } from "./rendererBase.js";

/**
 * A DM to the author when their task ends in a channel, after a turn long enough (`awayAfterMs`,
 * CODEXPI_DONE_DM_SECONDS) that they were likely away (never for a DM conversation, which is
 * already theirs, nor for a stop they asked), if their preferences say so. A failure that
 * opened an incident the author gets by DM is told by that DM alone (one DM per failure).
 */
export async function pingAuthor(
  base: RendererBase,
  outboxId: number,
  snap: SlackConversation,
  event: EventOf<"conversation.finished">,
  awayAfterMs: number,
): Promise<void> {
  const userId = snap.userId;
  if (
    event.status === "cancelled" ||
    snap.decisionOpen || // not over: the decision's own DM says what waits
    snap.origin === "dm" ||
    !isSlackUser(userId)
  )
    return;
  const preferences = await base.api.coordination.preferences(userId);
  if (!preferences.task_completion) return;
  // Only a person likely away is told: one who waited a few seconds is still looking at the thread.
  const ranMs = (await base.api.conversations.turnFailure(event.queueId))?.ranMs ?? null;
  if (ranMs !== null && ranMs < awayAfterMs) return;
  if (
    event.status === "failed" &&
    preferences.incidents &&
    (await base.api.coordination.itemOpenedIncident(event.queueId))
  )
    return;
  await base.pingOnce({
    key: `${outboxId}:ping`,
    outboxId,
    conversationId: snap.conversationId,
    userId,
    at: { channel: snap.channelId, ts: snap.threadTs as string },
    text: (link) =>
      t(base.locale, event.status === "done" ? "notice.task_done" : "notice.task_failed", {
        project: escapeClip(snap.projectName, 100),
        link,
      }),
  });
}
