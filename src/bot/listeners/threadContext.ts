import type { OnCreated } from "../../engine/api/model.js";
import type { ThreadRead } from "../threadContext/index.js";
import type { BotContext } from "../context.js";

/** The message a prompt came from: its channel, its ts, its thread's. */
interface Written {
  channel: string;
  ts: string;
  thread_ts?: string;
}

/**
 * The Slack context of a mention written in a thread (not at a channel's top level): the
 * thread's earlier messages, its channel's name and topic, and the files shared with them. Only
 * that thread is read.
 */
export function mentionContext(ctx: BotContext, e: Written): Promise<ThreadRead> {
  if (!e.thread_ts || e.thread_ts === e.ts) return Promise.resolve({ context: null, files: [] });
  return ctx.threadReader.earlier(e.channel, e.thread_ts, e.ts);
}

/**
 * The Slack context of a follow-up in a conversation's thread: what people posted there after
 * the last message its agent was given (as a prompt or as context), before this one, and their files.
 */
export async function followUpContext(
  ctx: BotContext,
  conversationId: string,
  e: Written & { thread_ts: string },
): Promise<ThreadRead> {
  const after = (await ctx.addresses.contextTs(conversationId)) ?? e.thread_ts;
  return ctx.threadReader.since(e.channel, e.thread_ts, after, e.ts);
}

/**
 * `onCreated`, then the new conversation's thread marked as given up to `ts` (the message that
 * asked), in the same transaction: its first follow-up carries only what came after.
 */
export function givenUpTo(ctx: BotContext, onCreated: OnCreated, ts: string): OnCreated {
  return async (trx, id) => {
    await onCreated(trx, id);
    await ctx.addresses.within(trx).advanceContext(id, ts);
  };
}
