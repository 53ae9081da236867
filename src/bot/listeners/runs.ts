import type { Actor, RunDetail } from "../../engine/api/model.js";
import type { App, BlockButtonAction, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { t } from "../../i18n/index.js";
import { ACTIONS, CALLBACKS } from "../../views/ids.js";
import {
  parsePlanText,
  readRunModalMetadata,
  readRunPlan,
  runDetailView,
  runPlanErrors,
  runReviseModal,
  runStageLabel,
  runStartModal,
} from "../../views/runs.js";
import type { InteractiveBlock } from "../../views/interactive.js";
import type { Command } from "../commandGrammar.js";
import { actorOf, errorText, type BotContext } from "../context.js";
import { askedIn } from "../askedIn.js";

/** A reply to a `/codex` command (ephemeral). */
export type Reply = { text: string; blocks?: InteractiveBlock[] };

const resumedText = (ctx: BotContext, run: RunDetail, key: "run_view.resumed_ack" | "run_view.revised_ack") =>
  t(ctx.locale, key, { stage: runStageLabel(ctx.locale, run.stage) });

/** `/codex run`, `run resume`, `run cancel`: answered through the response URL. */
export async function runCommand(
  ctx: BotContext,
  cmd: Extract<Command, { kind: "run" | "run.resume" | "run.cancel" }>,
  actor: Actor,
  _channelId: string,
): Promise<Reply> {
  switch (cmd.kind) {
    case "run":
      return runDetailView(ctx.locale, await ctx.api.runs.status(actor));
    case "run.resume":
      return { text: resumedText(ctx, await ctx.api.runs.resume(actor), "run_view.resumed_ack") };
    case "run.cancel":
      await ctx.api.runs.cancel(actor);
      return { text: t(ctx.locale, "run_view.cancelled_ack") };
  }
}

/** `/codex run start` and `run resume --revise`: open the plan modal at once (trigger_id lasts 3 s). */
export async function openRunModal(
  ctx: BotContext,
  client: WebClient,
  cmd: Extract<Command, { kind: "run.start" | "run.resume" }>,
  triggerId: string,
  channelId: string,
  actor: Actor,
): Promise<void> {
  const view =
    cmd.kind === "run.start"
      ? runStartModal(ctx.locale, { channelId })
      : runReviseModal(ctx.locale, { ...(await reviseTarget(ctx, actor)), channelId });
  await client.views.open({ trigger_id: triggerId, view });
}

/** The run the actor may revise (the engine checks who, and that it is BLOCKED). */
async function reviseTarget(ctx: BotContext, actor: Actor, runId?: string) {
  const run = await ctx.api.runs.revisable(actor, runId);
  return { runId: run.id, steps: run.steps };
}

/**
 * Run buttons (`run.resume`, `run.revise`) and the plan modal submissions. Buttons act for the
 * clicking user only (the engine refuses anyone but the owner or an admin, and anyone who cannot
 * see the master or a project of the plan, as "not found") and are
 * idempotent: a second Resume on a resumed run says it is not blocked.
 */
export function registerRunActions(app: App, ctx: BotContext): void {
  const reply = (respond: RespondFn, text: string) =>
    respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
      ctx.logger.warn({ err }, "could not answer a run action"),
    );

  app.action<BlockButtonAction>(ACTIONS.runResume, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = actorOf(ctx, body.user.id);
    ctx.afterAck.run(async () => {
      try {
        await reply(
          respond,
          resumedText(
            ctx,
            await ctx.api.runs.resume(actor, { runId: action.value ?? "" }),
            "run_view.resumed_ack",
          ),
        );
      } catch (err) {
        await reply(respond, errorText(ctx, err));
      }
    });
  });

  app.action<BlockButtonAction>(ACTIONS.runRevise, async ({ ack, body, action, client, respond }) => {
    await ack();
    const actor = actorOf(ctx, body.user.id);
    try {
      // Opened at once, not behind the queue: a trigger_id expires after 3 seconds.
      const target = await reviseTarget(ctx, actor, action.value ?? "");
      const channelId = (body as { channel?: { id?: string } }).channel?.id;
      await client.views.open({
        trigger_id: body.trigger_id,
        view: runReviseModal(ctx.locale, { ...target, ...(channelId ? { channelId } : {}) }),
      });
    } catch (err) {
      await reply(respond, errorText(ctx, err));
    }
  });

  app.view(CALLBACKS.runStart, async ({ ack, body, view, client }) => {
    const actor = actorOf(ctx, body.user.id);
    const meta = readRunModalMetadata(view.private_metadata);
    const parsed = parsePlanText(ctx.locale, readRunPlan(view.state.values));
    if (!parsed.ok)
      return void (await ack({ response_action: "errors", errors: runPlanErrors(parsed.error) }));
    try {
      await ctx.api.runs.start(
        actor,
        parsed.plan,
        meta.channelId
          ? { onCreated: askedIn(ctx, { channel: meta.channelId, threadTs: null, statusTs: null }, "run") }
          : {},
      );
    } catch (err) {
      return void (await ack({ response_action: "errors", errors: runPlanErrors(errorText(ctx, err)) }));
    }
    await ack();
    ctx.afterAck.run(() =>
      tell(ctx, client, actor.userId, meta.channelId, t(ctx.locale, "run_view.started_ack")),
    );
  });

  app.view(CALLBACKS.runRevise, async ({ ack, body, view, client }) => {
    const actor = actorOf(ctx, body.user.id);
    const meta = readRunModalMetadata(view.private_metadata);
    const parsed = parsePlanText(ctx.locale, readRunPlan(view.state.values));
    if (!parsed.ok)
      return void (await ack({ response_action: "errors", errors: runPlanErrors(parsed.error) }));
    let run: RunDetail;
    try {
      run = await ctx.api.runs.resume(actor, {
        plan: parsed.plan,
        ...(meta.runId ? { runId: meta.runId } : {}),
      });
    } catch (err) {
      return void (await ack({ response_action: "errors", errors: runPlanErrors(errorText(ctx, err)) }));
    }
    await ack();
    ctx.afterAck.run(() =>
      tell(ctx, client, actor.userId, meta.channelId, resumedText(ctx, run, "run_view.revised_ack")),
    );
  });
}

/** An ephemeral note in the channel the modal came from, else a DM. */
async function tell(
  ctx: BotContext,
  client: WebClient,
  user: string,
  channel: string | undefined,
  text: string,
): Promise<void> {
  try {
    if (channel) await client.chat.postEphemeral({ channel, user, text });
    else await client.chat.postMessage({ channel: user, text });
  } catch (err) {
    ctx.logger.warn({ err }, "could not confirm a run modal");
  }
}
