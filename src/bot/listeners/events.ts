import { type ConversationWithProject, canIncident } from "../../engine/api/model.js";
import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { projectChoice } from "../../views/projectChoice.js";
import type { Block } from "../../views/blocks.js";
import { homeView } from "../../views/home.js";
import { usage } from "../../views/commands.js";
import { tokenize } from "../commandGrammar.js";
import { actorOf, errorText, readerOf, type BotContext } from "../context.js";
import { t } from "../../i18n/index.js";
import { waitForThread } from "../intake/context.js";
import { messageKeyOf } from "../intake/keys.js";
import { resolveRootFromSlack } from "../intake/threadRoots.js";
import { pendingApprovalItems } from "../approvalLinks.js";
import { tellUnread } from "../threadContext/index.js";
import { followUpContext } from "./threadContext.js";
import { askInThread } from "./askInThread.js";
import { tellThreadReader } from "./threadNotice.js";
import { type PromptFiles, promptFiles } from "../files/promptFiles.js";
import type { SlackFile } from "../files/stage.js";

interface MessageLike {
  user?: string;
  bot_id?: string;
  subtype?: string;
  text?: string;
  channel: string;
  channel_type?: string;
  ts: string;
  thread_ts?: string;
  /** Who wrote the thread's root (Slack sets it on replies). */
  parent_user_id?: string;
  /** The files shared with the message (issue 19: they go to the agent). */
  files?: SlackFile[];
}

/** `<@BOT> demo do this` → { project: "demo", prompt: "do this" }. */
export function parseMention(text: string, botUserId: string): { project: string; prompt: string } | null {
  const stripped = withoutMention(text, botUserId);
  const [project] = tokenize(stripped);
  if (!project) return null;
  const prompt = stripped.replace(/^("[^"]*"|“[^”]*”|\S+)\s*/, "").trim();
  return prompt ? { project, prompt } : null;
}

/** The message's text without the mentions of the bot. */
const withoutMention = (text: string, botUserId: string): string =>
  text.replace(new RegExp(`<@${botUserId}(\\|[^>]*)?>`, "g"), " ").trim();

/**
 * Mentions and DMs start conversations (the user's message is the thread); replies in a
 * conversation's thread are follow-ups in the same Codex session. The bot's own messages and
 * other bots' are ignored. An @mention inside a conversation thread arrives as both
 * `app_mention` and `message`: only the `message` one is handled. Elsewhere the `app_mention`
 * starts it, and a `message` twin coming after (its thread now a conversation's) finds the
 * message queued under its key (channel, ts) and does nothing: one message, one turn.
 */
export function registerEvents(app: App, ctx: BotContext): void {
  // Bolt has acked events already; the work still goes behind the queue so that it never holds
  // back the acks of commands arriving at the same time.
  // Replay-safe: the prompts they queue carry the request's key (see AfterAck.run).
  app.event("app_mention", async ({ event, client }) =>
    ctx.afterAck.run(() => onMention(ctx, client, event as unknown as MessageLike), { replaySafe: true }),
  );
  app.message(async ({ message, client }) =>
    ctx.afterAck.run(() => onMessage(ctx, client, message as unknown as MessageLike), { replaySafe: true }),
  );
  app.event("app_home_opened", async ({ event, client }) =>
    ctx.afterAck.run(() => onHomeOpened(ctx, client, event)),
  );
}

/** The conversation of a thread: one the bot started, or one asked in that thread (its address either way). */
async function conversationOfSlackThread(
  ctx: BotContext,
  channel: string,
  threadTs: string,
): Promise<ConversationWithProject | null> {
  const id = await ctx.addresses.subjectOfThread("conversation", channel, threadTs);
  return id ? ctx.api.conversations.load(id) : null;
}

async function onMention(ctx: BotContext, client: WebClient, e: MessageLike): Promise<void> {
  if (!e.user || e.bot_id || e.user === ctx.botUserId) return;
  if (e.thread_ts && (await conversationOfSlackThread(ctx, e.channel, e.thread_ts))) return; // the message event handles it
  await start(ctx, client, e, "mention");
}

async function onMessage(ctx: BotContext, client: WebClient, e: MessageLike): Promise<void> {
  if (e.subtype && e.subtype !== "file_share" && e.subtype !== "thread_broadcast") return;
  if (!e.user || e.bot_id || e.user === ctx.botUserId || !e.text?.trim()) return;
  if (e.thread_ts && e.thread_ts !== e.ts) {
    const conversation = await conversationOfSlackThread(ctx, e.channel, e.thread_ts);
    if (!conversation) return void (await onUnknownThread(ctx, client, e));
    const prompt = e.text.replace(new RegExp(`<@${ctx.botUserId}(\\|[^>]*)?>`, "g"), "").trim();
    if (!prompt) return;
    // Its `app_mention` twin may have started this very conversation with it (see onMention).
    if (await handledAlready(ctx, e)) return;
    let files: PromptFiles | undefined;
    try {
      // What people posted in the thread since the agent was last given it comes along, quoted,
      // with the files they shared (after the reply's own, within the same limits).
      const { context, files: earlier } = await followUpContext(ctx, conversation.conversation.id, {
        ...e,
        thread_ts: e.thread_ts,
      });
      files = await promptFiles(ctx, client, e, e.thread_ts, earlier);
      // A member of a channel the project is visible to reads it: told they may not prompt it.
      // The writer's name goes along: the agent is told who wrote a teammate's follow-up.
      const writerName = (await ctx.names.of([e.user])).get(e.user) ?? null;
      const queued = await ctx.api.conversations.followUp(
        await readerOf(ctx, e.user, e.channel),
        conversation,
        prompt,
        { requestKey: messageKeyOf(e.channel, e.ts), context, attachments: files.attachments, writerName },
      );
      // Its twin won a race for it: that one says whatever is to be said.
      if (queued.duplicate) return files.dropUnused(queued.item.attachments);
      await ctx.addresses.advanceContext(conversation.conversation.id, e.ts);
      await files.tell();
      await tellUnread(
        client,
        ctx.logger,
        ctx.locale,
        { channel: e.channel, threadTs: e.thread_ts },
        context,
      );
    } catch (err) {
      files?.drop();
      // Someone who may not prompt here: told once per thread, their words kept for the next turn.
      const reply = { user: e.user, channel: e.channel, thread_ts: e.thread_ts };
      if (await tellThreadReader(ctx, client, reply, conversation, err)) return;
      await ephemeral(ctx, client, e, errorText(ctx, err));
    }
    return;
  }
  if (e.channel_type === "im") await start(ctx, client, e, "dm");
}

/**
 * A reply in a thread the bot started but does not know yet: its root was posted and its ts not
 * recorded (the post's answer was lost, or the reply came first). The reply waits, durably, in
 * the intake and is tried again until the root's ts is recorded: by the notifier, which
 * reconciles a lost post through the message's metadata key, or here, from that same key read
 * from Slack (threadRoots.ts); past the intake's bound the person is told. Replies
 * in threads of other roots (people's own threads) are none of the bot's business, as before.
 */
async function onUnknownThread(ctx: BotContext, client: WebClient, e: MessageLike): Promise<void> {
  if (e.parent_user_id !== ctx.botUserId || !e.thread_ts) return;
  const args = { client, posts: ctx.posts, channel: e.channel, threadTs: e.thread_ts, logger: ctx.logger };
  // Its address is recorded once the notifier takes the post up again (without posting): the
  // reply matches at its next try.
  await resolveRootFromSlack(args);
  if (waitForThread()) return;
  ctx.logger.warn({ channel: e.channel, thread: e.thread_ts }, "a reply's thread was never matched");
  await ephemeral(ctx, client, e, t(ctx.locale, "notice.reply_unmatched"));
}

async function onHomeOpened(
  ctx: BotContext,
  client: WebClient,
  event: { user: string; tab?: string },
): Promise<void> {
  if (event.tab && event.tab !== "home") return;
  const actor = actorOf(ctx, event.user);
  const o = await ctx.api.coordination.overview(actor);
  const approvals = await pendingApprovalItems(ctx, client, actor);
  const view = homeView(ctx.locale, {
    approvals,
    decisions: o.decisions.map((d) => ({
      id: d.id,
      title: d.title,
      question: d.question,
      projectName: d.project_name,
    })),
    incidents: o.incidents.map((i) => ({
      id: i.id,
      status: i.status,
      projectName: i.project_name,
      error: i.error,
      retryable: canIncident(i.status, "offer_retry"),
    })),
    runtime_policies: {
      global: o.runtime_policies.global,
      projects: o.runtime_policies.projects.map((p) => ({
        name: p.name,
        effective_max_concurrent: p.effective_max_concurrent,
      })),
    },
    specialists: o.specialists.map((s) => ({
      id: s.id,
      name: s.name,
      status: s.status,
      capabilities: s.capabilities,
    })),
    run: await currentRun(ctx, actor),
    usage: await ctx.api.usage.report(actor, { days: 7 }),
    memory: await ctx.api.memory.overview(actor),
  });
  await client.views.publish({ user_id: event.user, view });
}

/** The run App Home shows: the actor's active (or latest) run, titled by its current step. */
async function currentRun(
  ctx: BotContext,
  actor: ReturnType<typeof actorOf>,
): Promise<{ status: string; stage: string; title: string } | null> {
  const run = await ctx.api.runs.status(actor);
  if (run.status === "NOT_STARTED" || !("steps" in run)) return null;
  const step = run.steps.find((s) => s.id === run.current_step_id) ?? run.steps[0];
  return { status: run.status, stage: run.stage, title: step?.title ?? "" };
}

async function start(
  ctx: BotContext,
  client: WebClient,
  e: MessageLike,
  origin: "mention" | "dm",
): Promise<void> {
  // As a reader: naming a project they may only read, they are told who may prompt it.
  const actor = await readerOf(ctx, e.user as string, origin === "dm" ? null : e.channel);
  const text = withoutMention(e.text ?? "", ctx.botUserId);
  // Its twin delivery started it already: no second picker, usage or refusal either.
  if (await handledAlready(ctx, e)) return;
  try {
    // The engine decides where it goes: a named project, the channel's default, the DM's last one.
    const target = await ctx.api.projects.promptTarget(actor, text, {
      channelDefault: origin === "dm" ? null : await ctx.channelDefaults.get(e.channel),
      dm: origin === "dm",
    });
    if (!target) return await ephemeral(ctx, client, e, usage(ctx.locale, "ask"));
    if (target.kind === "choose") {
      // The click reads the thread and the message's files then (askInThread, from actions.ts).
      const choice = projectChoice(ctx.locale, target.projects, {
        channel: e.channel,
        threadTs: e.thread_ts ?? e.ts,
        ts: e.ts,
        user: e.user as string,
        origin,
        prompt: target.prompt,
      });
      return await ephemeral(ctx, client, e, choice.text, choice.blocks);
    }
    await askInThread(ctx, client, actor, e, { ...target, origin });
  } catch (err) {
    await ephemeral(ctx, client, e, errorText(ctx, err));
  }
}

/**
 * Whether the message was handled through another of its deliveries (an `app_mention` and a
 * `message` of the same ts, a retry): read before any work or word, so that the twin that comes
 * second, the usual case, stays silent. Two twins in flight at once are settled by the queue's
 * unique key on the message (askInThread, onMessage).
 */
const handledAlready = (ctx: BotContext, e: MessageLike): Promise<boolean> =>
  ctx.api.conversations.handled(messageKeyOf(e.channel, e.ts));

/** Answers one user only, in the thread they wrote in (a DM reply in a DM). */
async function ephemeral(
  ctx: BotContext,
  client: WebClient,
  e: MessageLike,
  text: string,
  blocks?: Block[],
): Promise<void> {
  try {
    if (e.channel_type === "im")
      await client.chat.postMessage({
        channel: e.channel,
        thread_ts: e.thread_ts ?? e.ts,
        text,
        ...(blocks ? { blocks } : {}),
      });
    else
      await client.chat.postEphemeral({
        channel: e.channel,
        user: e.user as string,
        text,
        ...(blocks ? { blocks } : {}),
        ...(e.thread_ts ? { thread_ts: e.thread_ts } : {}),
      });
  } catch (err) {
    ctx.logger.warn({ err }, "could not answer a message");
  }
}
