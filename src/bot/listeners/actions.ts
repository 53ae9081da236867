import type { App, BlockButtonAction } from "@slack/bolt";
import { currentRequest } from "../intake/context.js";
import { askedIn } from "../askedIn.js";
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
  // again that they may prompt it), in the thread of the message that asked.
  app.action<BlockButtonAction>(
    new RegExp(`^${ACTIONS.askChoose.replace(".", "\\.")}\\.\\d+$`),
    async ({ ack, body, action, respond }) => {
      await ack();
      const actor = actorOf(ctx, body.user.id);
      ctx.afterAck.run(
        async () => {
          const choice = readProjectChoice(action.value ?? "");
          let text: string;
          try {
            if (!choice) throw new Error("unreadable project choice");
            await ctx.api.conversations.ask(actor, choice.project, choice.prompt, {
              ...currentRequest(),
              onCreated: askedIn(ctx, {
                channel: choice.channel,
                threadTs: choice.threadTs,
                statusTs: null,
                origin: choice.origin,
              }),
            });
            text = t(ctx.locale, "ask.chosen", { project: choice.project });
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
