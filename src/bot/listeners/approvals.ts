import { APPROVAL_ANSWERS } from "../../engine/api/model.js";
import type { App, BlockButtonAction } from "@slack/bolt";
import { t } from "../../i18n/index.js";
import { APPROVAL_ACTION_IDS } from "../../views/approvals.js";
import { errorText, readerOf, type BotContext } from "../context.js";

/**
 * The four buttons of an approval card. Each answers for the clicking user only (the engine checks
 * they may: a reader of the conversation is told who may, anyone else "not found"; nothing changes) and is idempotent: a second click
 * is told the request was already answered. The card itself is edited by the notifier.
 */
export function registerApprovalActions(app: App, ctx: BotContext): void {
  for (const answer of APPROVAL_ANSWERS) {
    app.action<BlockButtonAction>(APPROVAL_ACTION_IDS[answer], async ({ ack, body, action, respond }) => {
      await ack();
      ctx.afterAck.run(async () => {
        let text: string;
        try {
          // As a reader: someone who sees the conversation is told who answers, not "not found".
          const actor = await readerOf(ctx, body.user.id, body.channel?.id);
          await ctx.api.approvals.answer(actor, action.value ?? "", answer);
          text = t(ctx.locale, "approval.answered_ack");
        } catch (err) {
          text = errorText(ctx, err);
        }
        respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
          ctx.logger.warn({ err }, "could not answer an approval click"),
        );
      });
    });
  }
}
