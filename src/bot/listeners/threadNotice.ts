import type { WebClient } from "@slack/web-api";
import { type ConversationWithProject, isEngineError, isSharedSpecialist } from "../../engine/api/model.js";
import { threadNoticeText } from "../../views/rights.js";
import type { BotContext } from "../context.js";

/** A reply in a conversation's thread: who wrote it, where. */
interface Reply {
  user: string;
  channel: string;
  thread_ts: string;
}

/**
 * Whether a follow-up was refused because its writer may not drive the conversation: they cannot
 * see its project (`not_found`), they read it without the right to prompt in it, or it is a
 * shared specialist's (admins only).
 */
function isReaderRefusal(err: unknown): err is { params: Readonly<Record<string, string | number>> } {
  if (!isEngineError(err)) return false;
  return (
    (err.code === "not_found" && err.reason === "conversation_not_found") ||
    (err.code === "forbidden" &&
      (err.reason === "conversation_reserved" || err.reason === "specialist_shared_admins_only"))
  );
}

/**
 * A person talking in a conversation's thread who may not prompt in it (DESIGN "A thread is the
 * team's"): never "not found" (everyone in the thread sees codexpi's posts), their message left
 * for the next follow-up to carry as context, and told once per thread, in their language, what
 * they may do and who may allow them. False for any other refusal (the caller says it as before).
 */
export async function tellThreadReader(
  ctx: BotContext,
  client: WebClient,
  reply: Reply,
  c: ConversationWithProject,
  err: unknown,
): Promise<boolean> {
  if (!isReaderRefusal(err)) return false;
  if (!(await ctx.threadNotices.firstTime(reply.channel, reply.thread_ts, reply.user))) return true;
  const text = threadNoticeText(ctx.locale, {
    project: c.project.name,
    owner: c.project.owner_id,
    author: c.conversation.user_id,
    threadPrompters: c.project.thread_prompters,
    mayPromptProject: Number(err.params.may_prompt_project ?? 0) === 1,
    admins: ctx.config.admins,
    sharedSpecialist: isSharedSpecialist(c.project),
  });
  try {
    await client.chat.postEphemeral({
      channel: reply.channel,
      user: reply.user,
      text,
      thread_ts: reply.thread_ts,
    });
  } catch (e) {
    ctx.logger.warn({ err: e }, "could not tell a thread's reader what they may do");
  }
  return true;
}
