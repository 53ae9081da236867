import { askedIn } from "../../src/bot/askedIn.js";
import { SlackAddresses, type SubjectKind } from "../../src/bot/store/addresses.js";
import type { Clock } from "../../src/engine/clock.js";
import type { Database, OnCreated } from "../../src/engine/database.js";

/**
 * What the bot hands the engine when a subject is created from Slack: its address (a channel,
 * no thread yet, `/codex ask` for a conversation), recorded in the creating transaction.
 */
export function askedInChannel(
  env: { db: Database; clock: Clock },
  channel: string,
  kind: SubjectKind = "conversation",
): OnCreated {
  const address = { channel, threadTs: null, statusTs: null };
  return askedIn(
    { addresses: new SlackAddresses(env.db, env.clock) },
    kind === "conversation" ? { ...address, origin: "command" } : address,
    kind,
  );
}
