import type { App, BlockButtonAction, RespondFn } from "@slack/bolt";
import type { Actor } from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { ACTIONS, BLOCKS, CALLBACKS, INPUTS } from "../../views/ids.js";
import { inputValue, type StateValues } from "../../views/interactive.js";
import { memoryEditModal, memoryListMessage } from "../../views/memory.js";
import { escapeClip } from "../../views/mrkdwn.js";
import type { Command } from "../commandGrammar.js";
import { errorText, readerOf, type BotContext } from "../context.js";
import type { Reply } from "./runs.js";

// Project memory in Slack (issue 34): `/codex remember`, `/codex memory`, and the buttons of a
// proposal's card and of the list. Each button carries only the note's id; the engine checks
// every click against the Slack user who clicked, so a stranger's click changes nothing and is
// told why. A proposal's card is redrawn by the notifier (`memory.updated`).

type Kind<K extends Command["kind"]> = Extract<Command, { kind: K }>;

/**
 * `/codex remember <project> [--here] <text>`: `--here` keeps it for the conversations started in
 * this channel only (the channel's id is the engine's opaque place).
 */
export async function rememberCommand(
  ctx: BotContext,
  cmd: Kind<"memory.remember">,
  actor: Actor,
  channelId: string,
): Promise<Reply> {
  const n = await ctx.api.memory.add(actor, cmd.project, cmd.text, cmd.here ? channelId : null);
  const key = n.place ? "memory.added_here" : "memory.added";
  return { text: t(ctx.locale, key, { id: n.id, project: escapeClip(n.project, 80) }) };
}

/** `/codex memory <project>`: its notes and this channel's, with Edit and Forget for those who may. */
export async function memoryCommand(
  ctx: BotContext,
  cmd: Kind<"memory.list">,
  actor: Actor,
  channelId: string,
): Promise<Reply> {
  return memoryListMessage(ctx.locale, await ctx.api.memory.list(actor, cmd.project, channelId));
}

/** An ephemeral answer to the person who clicked, beside the message (never replacing it). */
function tell(ctx: BotContext, respond: RespondFn, text: string) {
  return respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
    ctx.logger.warn({ err }, "could not answer a memory button"),
  );
}

export function registerMemoryActions(app: App, ctx: BotContext): void {
  // Keep and Discard answer a proposal's card, which the notifier redraws: only refusals are told.
  // "Keep for this channel" keeps it for the place the proposal's conversation was started in.
  for (const [actionId, answer] of [
    [ACTIONS.memoryKeep, (a: Actor, id: string) => ctx.api.memory.keep(a, id)],
    [ACTIONS.memoryKeepHere, (a: Actor, id: string) => ctx.api.memory.keep(a, id, true)],
    [ACTIONS.memoryDiscard, (a: Actor, id: string) => ctx.api.memory.discard(a, id)],
  ] as const) {
    app.action<BlockButtonAction>(actionId, async ({ ack, body, action, respond }) => {
      await ack();
      ctx.afterAck.run(async () => {
        try {
          await answer(await readerOf(ctx, body.user.id, body.channel?.id), action.value ?? "");
        } catch (err) {
          await tell(ctx, respond, errorText(ctx, err));
        }
      });
    });
  }

  // Forget is on the list (an ephemeral message): the list is drawn again without the note.
  app.action<BlockButtonAction>(ACTIONS.memoryForget, async ({ ack, body, action, respond }) => {
    await ack();
    ctx.afterAck.run(async () => {
      try {
        const actor = await readerOf(ctx, body.user.id, body.channel?.id);
        const n = await ctx.api.memory.forget(actor, action.value ?? "");
        const list = memoryListMessage(
          ctx.locale,
          await ctx.api.memory.list(actor, n.project, body.channel?.id ?? null),
        );
        await respond({ response_type: "ephemeral", replace_original: true, ...list });
        await tell(
          ctx,
          respond,
          t(ctx.locale, "memory.forgotten", { id: n.id, project: escapeClip(n.project, 80) }),
        );
      } catch (err) {
        await tell(ctx, respond, errorText(ctx, err));
      }
    });
  });

  app.action<BlockButtonAction>(ACTIONS.memoryEdit, async ({ ack, body, action, client, respond }) => {
    await ack();
    try {
      // Opened at once, not behind the queue: a trigger_id expires after 3 seconds.
      const actor = await readerOf(ctx, body.user.id, body.channel?.id);
      const { note, mayWrite } = await ctx.api.memory.get(actor, action.value ?? "");
      if (!mayWrite) {
        // The engine's own refusal, recorded like any: editing is what was refused.
        await ctx.api.memory.edit(actor, note.id, note.text);
      }
      await client.views.open({
        trigger_id: body.trigger_id,
        view: memoryEditModal(ctx.locale, note, note.id),
      });
    } catch (err) {
      await tell(ctx, respond, errorText(ctx, err));
    }
  });

  app.view(CALLBACKS.memoryEdit, async ({ ack, body, view }) => {
    const text = inputValue(view.state.values as StateValues, BLOCKS.memoryText, INPUTS.memoryText);
    try {
      await ctx.api.memory.edit(await readerOf(ctx, body.user.id), view.private_metadata, text);
      await ack();
    } catch (err) {
      await ack({ response_action: "errors", errors: { [BLOCKS.memoryText]: errorText(ctx, err) } });
    }
  });
}
