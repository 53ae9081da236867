import { isEngineError } from "../../engine/api/model.js";
import type { App, BlockAction, BlockButtonAction, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { policyErrors, POLICY_INPUTS, readPolicy } from "../../views/policy.js";
import { t } from "../../i18n/index.js";
import {
  decisionCustomModal,
  decisionOptionId,
  parseDecisionOptionValue,
  readDecisionChoices,
  readDecisionCustom,
  readSpecialistAdd,
  readSpecialistAddMetadata,
  specialistAddErrors,
  DECISION_CUSTOM_BLOCK,
  DECISION_OPTION_ACTION,
  type StateValues,
} from "../../views/coordination.js";
import { escapeMrkdwn } from "../../views/mrkdwn.js";
import { ACTIONS, CALLBACKS } from "../../views/ids.js";
import { actorOf, errorText, readerOf, type BotContext } from "../context.js";

/**
 * Decision, incident and specialist buttons, and the coordination modals. Every handler answers
 * for the clicking user only (the engine checks they may), and is idempotent: a second click on
 * an answered decision gets "already answered", never a second answer.
 */
export function registerCoordinationActions(app: App, ctx: BotContext): void {
  registerDecisionActions(app, ctx);
  registerIncidentAndSpecialistButtons(app, ctx);
  registerPolicyModal(app, ctx);
  registerSpecialistModal(app, ctx);
}

/** An ephemeral answer to the person who clicked, beside the message (never replacing it). */
function reply(ctx: BotContext, respond: RespondFn, text: string) {
  return respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
    ctx.logger.warn({ err }, "could not answer an action"),
  );
}

/** A decision's option buttons, its submit button, and the modal for an answer in the person's words. */
function registerDecisionActions(app: App, ctx: BotContext): void {
  // One action id per option button (Slack refuses duplicates in a block): matched by pattern.
  app.action<BlockAction>(DECISION_OPTION_ACTION, async ({ ack, body, action, respond }) => {
    await ack();
    if (action.type !== "button") return; // a checkbox ticked: the submit button answers
    const parsed = parseDecisionOptionValue(action.value ?? "");
    ctx.afterAck.run(async () => {
      try {
        // As a reader: someone who sees the conversation is told who answers, not "not found".
        const actor = await readerOf(ctx, body.user.id, body.channel?.id);
        const decision = await ctx.api.decisions.get(actor, parsed?.decisionId ?? "");
        const optionId = parsed ? decisionOptionId(decision, parsed.token) : null;
        await ctx.api.decisions.answer(actor, decision.id, [optionId ?? ""], "");
        await reply(ctx, respond, t(ctx.locale, "decision.answered_ack"));
      } catch (err) {
        await reply(ctx, respond, errorText(ctx, err));
      }
    });
  });

  app.action<BlockButtonAction>(ACTIONS.decisionSubmit, async ({ ack, body, action, respond }) => {
    await ack();
    const decisionId = action.value ?? "";
    const values = ((body as { state?: { values?: StateValues } }).state?.values ?? {}) as StateValues;
    ctx.afterAck.run(async () => {
      try {
        const actor = await readerOf(ctx, body.user.id, body.channel?.id);
        const decision = await ctx.api.decisions.get(actor, decisionId);
        const choices = readDecisionChoices(decision, values);
        await ctx.api.decisions.answer(actor, decisionId, choices, "");
        await reply(ctx, respond, t(ctx.locale, "decision.answered_ack"));
      } catch (err) {
        await reply(ctx, respond, errorText(ctx, err));
      }
    });
  });

  app.action<BlockButtonAction>(ACTIONS.decisionCustom, async ({ ack, body, action, client, respond }) => {
    await ack();
    try {
      const actor = await readerOf(ctx, body.user.id, body.channel?.id);
      // Opened at once, not behind the queue: a trigger_id expires after 3 seconds.
      const decision = await ctx.api.decisions.get(actor, action.value ?? "");
      ctx.api.decisions.assertAnswerable(decision); // answered or cancelled: the refusal says which
      await client.views.open({
        trigger_id: body.trigger_id,
        view: decisionCustomModal(ctx.locale, decision),
      });
    } catch (err) {
      await reply(ctx, respond, errorText(ctx, err));
    }
  });

  app.view(CALLBACKS.decisionCustom, async ({ ack, body, view }) => {
    const actor = actorOf(ctx, body.user.id);
    const text = readDecisionCustom(view.state.values);
    try {
      const { effects } = await ctx.api.decisions.answerDeferred(actor, view.private_metadata, [], text);
      await ack();
      // The answer's effects wait for the ack: a modal must be answered within 3 seconds.
      ctx.afterAck.run(effects);
    } catch (err) {
      await ack({ response_action: "errors", errors: { [DECISION_CUSTOM_BLOCK]: errorText(ctx, err) } });
    }
  });
}

/** Retrying an incident and rebuilding a specialist: both answered after the ack. */
function registerIncidentAndSpecialistButtons(app: App, ctx: BotContext): void {
  app.action<BlockButtonAction>(ACTIONS.incidentRetry, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = actorOf(ctx, body.user.id);
    ctx.afterAck.run(async () => {
      try {
        await ctx.api.coordination.retryIncident(actor, action.value ?? "");
        await reply(ctx, respond, t(ctx.locale, "incident.view.retried_ack"));
      } catch (err) {
        await reply(ctx, respond, errorText(ctx, err));
      }
    });
  });

  app.action<BlockButtonAction>(ACTIONS.specialistRebuild, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = actorOf(ctx, body.user.id);
    ctx.afterAck.run(async () => {
      try {
        const s = await ctx.api.coordination.rebuildSpecialist(actor, action.value ?? "");
        await reply(
          ctx,
          respond,
          t(ctx.locale, "specialist.view.rebuilding", { name: escapeMrkdwn(s.name) }),
        );
      } catch (err) {
        await reply(ctx, respond, errorText(ctx, err));
      }
    });
  });
}

/** The policy modal's submission: admins only, field errors shown in the modal. */
function registerPolicyModal(app: App, ctx: BotContext): void {
  app.view(CALLBACKS.policyEdit, async ({ ack, body, view, client }) => {
    const actor = actorOf(ctx, body.user.id);
    try {
      const { effects } = await ctx.api.policies.update(actor, readPolicy(view.state.values));
      await ack();
      const { channelId } = readSpecialistAddMetadata(view.private_metadata); // same {channelId} shape
      ctx.afterAck.run(async () => {
        await effects(); // a higher limit may let queued work start now
        await tell(ctx, client, body.user.id, channelId, t(ctx.locale, "policy.saved"));
      });
    } catch (err) {
      const fields =
        isEngineError(err) && err.reason === "policy_invalid"
          ? String(err.params.fields ?? "").split(", ")
          : [];
      await ack({
        response_action: "errors",
        errors: fields.length
          ? policyErrors(ctx.locale, fields)
          : { [POLICY_INPUTS.max_concurrent.blockId]: errorText(ctx, err) },
      });
    }
  });
}

/** The new-specialist modal's submission: field errors in the modal, the confirmation after the ack. */
function registerSpecialistModal(app: App, ctx: BotContext): void {
  app.view(CALLBACKS.specialistAdd, async ({ ack, body, view, client }) => {
    const actor = actorOf(ctx, body.user.id);
    const meta = readSpecialistAddMetadata(view.private_metadata);
    try {
      const s = await ctx.api.coordination.createSpecialist(actor, readSpecialistAdd(view.state.values), {
        shared: meta.shared === true,
      });
      await ack();
      ctx.afterAck.run(() =>
        tell(
          ctx,
          client,
          body.user.id,
          meta.channelId,
          t(ctx.locale, "specialist.view.created", { name: escapeMrkdwn(s.name) }),
        ),
      );
    } catch (err) {
      if (isEngineError(err) && err.code === "invalid" && err.reason === "specialist_invalid") {
        await ack({
          response_action: "errors",
          errors: specialistAddErrors(ctx.locale, { fields: String(err.params.fields ?? "").split(", ") }),
        });
      } else {
        await ack({
          response_action: "errors",
          errors: specialistAddErrors(ctx.locale, { fields: ["name"] }, errorText(ctx, err)),
        });
      }
    }
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
    ctx.logger.warn({ err }, "could not confirm a modal");
  }
}
