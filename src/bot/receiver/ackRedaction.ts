import type { ReceiverEvent } from "@slack/bolt";
import { redactDeep } from "../../redaction.js";
import type { ProcessEvent, ReceiverLayer } from "./layer.js";

/**
 * Makes every ack body pass the redactor (a slash command's immediate answer, a modal's field
 * errors): acks are the one reply to Slack that is not a Web API call (whose fetch redacts, see
 * redactingSlack.ts). Every request passes this layer, in HTTP and Socket Mode alike.
 */
export const redactAcks: ReceiverLayer = {
  wrap:
    (next: ProcessEvent): ProcessEvent =>
    (event: ReceiverEvent) =>
      next({ ...event, ack: (response?: unknown) => event.ack(redactDeep(response)) }),
};
