import type { EventOf } from "../../engine/api/model.js";
import { followUpAck } from "../../views/conversation.js";
import { placeOf, type SlackConversation } from "./conversationSnapshot.js";
import { Defer } from "./defer.js";
import type { RendererBase } from "./rendererBase.js";

// A steerable follow-up's acknowledgement waits this long between looks (the worker polls twice a second).
const STEER_ACK_POLL_MS = 300;

/**
 * A follow-up written while its conversation was busy gets a short reply in the thread with its
 * place in the queue (1: next), posted once per item; an idle conversation's follow-up starts at
 * once and the state message says so. In the thread rather than ephemeral: everyone following
 * it sees that the reply was taken, and an outbox post survives a restart. True when it is one.
 */
export async function acknowledgeFollowUp(
  base: RendererBase,
  outboxId: number,
  snap: SlackConversation,
  event: EventOf<"conversation.queued">,
): Promise<boolean> {
  if (!snap.threadTs || !(await base.api.conversations.waitedForItsConversation(event.queueId))) return false;
  // A follow-up the running turn takes is told so by its `conversation.steered` (steerMessages).
  const fate = await base.api.conversations.followUpFate(event.queueId);
  if (fate === "steering") throw new Defer(STEER_ACK_POLL_MS);
  if (fate === "steered") return false;
  const ack = followUpAck(base.locale, { position: event.position + 1 });
  await base.poster.postOnce({
    ...placeOf(outboxId, snap),
    key: `followup:${event.queueId}`,
    purpose: "notice",
    text: ack.text,
    blocks: ack.blocks,
  });
  return true;
}
