import type { OnCreated, ScheduledIn } from "../engine/api/model.js";
import type { Clock } from "../engine/api/runtime.js";
import type { BotContext } from "./context.js";
import { SlackAddresses, type SlackAddress, type SubjectKind } from "./store/addresses.js";

/**
 * Records where a subject the engine creates for a Slack request lives (its channel, the thread
 * it was asked in, how), inside the engine's creating transaction: the notifier (another process,
 * maybe) never sees the subject's first events without its address, which it would skip as a
 * CLI subject's, and a crash keeps both or neither.
 */
export function askedIn(
  ctx: Pick<BotContext, "addresses">,
  address: SlackAddress,
  kind: SubjectKind = "conversation",
): OnCreated {
  return (trx, id) => ctx.addresses.within(trx).record(kind, id, address);
}

/**
 * Where a schedule's conversation lives: its root is posted in the schedule's channel as a
 * `/codex ask`'s is (a schedule without a channel starts its conversations outside Slack).
 */
export function scheduledInSlack(clock: Clock): ScheduledIn {
  return async (trx, id, channel) => {
    if (channel)
      await new SlackAddresses(trx, clock).record("conversation", id, {
        channel,
        threadTs: null,
        statusTs: null,
        origin: "command",
      });
  };
}
