import type { OnCreated } from "../engine/api/model.js";
import type { BotContext } from "./context.js";
import type { SlackAddress, SubjectKind } from "./store/addresses.js";

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
