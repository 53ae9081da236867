import type { RespondFn } from "@slack/bolt";
import { t } from "../../i18n/index.js";
import { setupResultText } from "../../views/setup.js";
import { errorText, readerOf, type BotContext } from "../context.js";

/**
 * `/codex setup <project>`: says it started, runs a direct project's setup in its checkout (the
 * engine checks the owner or an admin, the mode, that no agent of it runs), and answers with the
 * result and its redacted log tail through the response URL (valid 30 minutes; the setup's limit
 * is 10 by default). Never awaited by the listener: it may take minutes.
 */
export function setupCommand(
  ctx: BotContext,
  userId: string,
  channelId: string,
  project: string,
  respond: RespondFn,
): void {
  const answer = (text: string) =>
    respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
      ctx.logger.warn({ err }, "could not answer /codex setup"),
    );
  void (async () => {
    try {
      const actor = await readerOf(ctx, userId, channelId);
      await answer(t(ctx.locale, "setup.started", { name: project }));
      await answer(setupResultText(ctx.locale, await ctx.api.setup.runDirect(actor, project)));
    } catch (err) {
      await answer(errorText(ctx, err));
    }
  })();
}
