import type { FakeSlackMessage } from "./fakeSlack.js";

// Reading lane cards (issue 18) out of the fake Slack's messages, for the tests that drive a
// lane's card through the real bot.

/** The button of `actionId` in a message, if it has one. */
export function buttonOf(m: FakeSlackMessage, actionId: string): { value: string } | undefined {
  for (const b of (m.blocks ?? []) as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>)
    for (const e of b.elements ?? []) if (e.action_id === actionId) return { value: e.value ?? "" };
  return undefined;
}

/** The lane cards of a conversation's thread: messages whose blocks carry its id on a lane button. */
export const cardsOf = (slack: { messages(): FakeSlackMessage[] }, conversationId: string) =>
  slack
    .messages()
    .filter((m) => JSON.stringify(m.blocks ?? []).includes(`"value":"${conversationId}"`))
    .filter((m) => JSON.stringify(m.blocks ?? []).includes("lane."));

/** A message as it stands now (its latest update), by ts. */
export const messageAt = (slack: { messages(): FakeSlackMessage[] }, ts: string) =>
  slack.messages().find((x) => x.ts === ts);
