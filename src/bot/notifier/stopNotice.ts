import type { EventOf } from "../../engine/api/model.js";
import { stopSummary } from "../../views/conversation.js";
import { placeOf, type SlackConversation } from "./conversationSnapshot.js";
import type { RendererBase } from "./rendererBase.js";

/**
 * Who stopped and what it cancelled, once in the thread for everyone following it (a second
 * click stops nothing and emits nothing; a replayed event finds its post by key).
 */
export async function tellStop(
  base: RendererBase,
  outboxId: number,
  snap: SlackConversation,
  event: EventOf<"conversation.stopped"> & { by: string },
): Promise<void> {
  const text = stopSummary(base.locale, {
    userId: event.by,
    stoppingRunning: event.stoppingRunning ?? 0,
    cancelledQueued: event.cancelledQueued ?? 0,
    cancelledDecisions: event.cancelledDecisions ?? 0,
  });
  await base.poster.postOnce({
    ...placeOf(outboxId, snap),
    key: `stop:${outboxId}`,
    purpose: "notice",
    text,
  });
}
