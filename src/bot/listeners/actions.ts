import type { App, BlockButtonAction } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Actor } from "../../engine/api/model.js";
import { filesOfMessage } from "../files/messageFiles.js";
import { askInThread } from "./askInThread.js";
import { t } from "../../i18n/index.js";
import { ACTIONS } from "../../views/ids.js";
import { readProjectChoice } from "../../views/projectChoice.js";
import { actorOf, errorText, readerOf, type BotContext } from "../context.js";

/** Buttons. Every handler checks the clicking user and is idempotent (a button can be clicked twice). */
export function registerActions(app: App, ctx: BotContext): void {
  app.action<BlockButtonAction>(ACTIONS.conversationStop, async ({ ack, body, action, respond }) => {
    await ack();
    ctx.afterAck.run(async () => {
      let text: string;
      try {
        // A reader of the project is told they may not stop it (not "not found"); the engine decides.
        // Membership is Slack's word only: a public channel's buttons can be clicked in preview.
        const actor = await readerOf(ctx, body.user.id);
        const r = await ctx.api.conversations.stop(actor, action.value ?? "");
        // What it stopped is posted once in the thread (by the notifier), for everyone to see.
        if (r.stoppingRunning + r.cancelledQueued + r.cancelledDecisions > 0) return;
        text = t(ctx.locale, "notice.nothing_to_stop");
      } catch (err) {
        text = errorText(ctx, err);
      }
      respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
        ctx.logger.warn({ err }, "could not answer a stop"),
      );
    });
  });

  // "Which project?": the click runs the prompt there, as the clicking person (the engine checks
  // again that they may prompt it), in the thread of the message that asked, as the message
  // itself would have: with the thread's earlier messages and the message's files, read now.
  app.action<BlockButtonAction>(
    new RegExp(`^${ACTIONS.askChoose.replace(".", "\\.")}\\.\\d+$`),
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const actor = actorOf(ctx, body.user.id);
      ctx.afterAck.run(
        async () => {
          let text: string;
          try {
            text = await onProjectChosen(ctx, client, actor, action.value ?? "");
          } catch (err) {
            text = errorText(ctx, err);
          }
          respond({ replace_original: true, text }).catch((err) =>
            ctx.logger.warn({ err }, "could not answer a project choice"),
          );
        },
        { replaySafe: true },
      );
    },
  );
}

/** Runs the chosen project's prompt for the person who asked (only theirs counts); the answer. */
async function onProjectChosen(
  ctx: BotContext,
  client: WebClient,
  actor: Actor,
  value: string,
): Promise<string> {
  const choice = readProjectChoice(value);
  if (!choice) throw new Error("unreadable project choice");
  if (choice.user && choice.user !== actor.userId) return t(ctx.locale, "ask.choice_not_yours");
  // A button of an older version carries no ts: the prompt runs without the thread and the files.
  const ts = choice.ts ?? choice.threadTs;
  const files = choice.ts ? await filesOfMessage(client, ctx.logger, { ...choice, ts: choice.ts }) : [];
  const message = { channel: choice.channel, ts, thread_ts: choice.threadTs, files };
  await askInThread(ctx, client, actor, message, choice);
  return t(ctx.locale, "ask.chosen", { project: choice.project });
}
