import type { WebClient } from "@slack/web-api";
import type { Actor } from "../../engine/api/model.js";
import type { BotContext } from "../context.js";
import { askedIn } from "../askedIn.js";
import { messageKeyOf } from "../intake/keys.js";
import { tellUnread } from "../threadContext/index.js";
import { promptFiles } from "../files/promptFiles.js";
import type { SlackFile } from "../files/stage.js";
import { givenUpTo, mentionContext } from "./threadContext.js";
import { placeOf } from "./channelCommands.js";

/** The message that asked: where it was written, and the files shared with it. */
export interface AskingMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  files?: SlackFile[];
}

/**
 * Starts a conversation in `project` for a mention or a DM, in the thread of the message that
 * asked: a mention in someone's thread brings the thread's earlier messages (quoted) and their
 * files; the message's own files come first. Shared by the message itself (its project named or
 * found) and by the click that chose the project. In a channel, its settings go with the request. Throws what the engine refused (the staged
 * files dropped). A message handled already, through another delivery, starts nothing and says
 * nothing.
 */
export async function askInThread(
  ctx: BotContext,
  client: WebClient,
  actor: Actor,
  m: AskingMessage,
  target: { project: string; prompt: string; origin: "mention" | "dm" },
): Promise<void> {
  const threadTs = m.thread_ts ?? m.ts;
  const read = target.origin === "mention" ? await mentionContext(ctx, m) : { context: null, files: [] };
  const files = await promptFiles(ctx, client, m, threadTs, read.files);
  let queued: { duplicate: boolean; item: { attachments: string | null } };
  try {
    const where = askedIn(ctx, { channel: m.channel, threadTs, statusTs: null, origin: target.origin });
    // Keyed by the message, not the delivery: its twin (or a second click on its picker) queues nothing.
    queued = await ctx.api.conversations.ask(actor, target.project, target.prompt, {
      requestKey: messageKeyOf(m.channel, m.ts),
      context: read.context,
      onCreated: givenUpTo(ctx, where, m.ts),
      attachments: files.attachments,
      // The channel's settings, for a request in its project (never a DM's).
      place: target.origin === "mention" ? await placeOf(ctx, m.channel) : null,
      // Where it was started (a DM too), for the notes kept there (`/codex remember --here`).
      placeId: m.channel,
    });
  } catch (err) {
    files.drop();
    throw err;
  }
  // Handled already (a twin delivery that lost the race): nothing more is said.
  if (queued.duplicate) return files.dropUnused(queued.item.attachments);
  await files.tell();
  await tellUnread(client, ctx.logger, ctx.locale, { channel: m.channel, threadTs }, read.context);
}
