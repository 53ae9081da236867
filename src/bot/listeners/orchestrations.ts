import { type Actor, EngineError, isEngineError } from "../../engine/api/model.js";
import type { App, BlockButtonAction, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { ACTIONS, CALLBACKS } from "../../views/ids.js";
import {
  feedbackModal,
  orchestrationFormErrors,
  orchestrationModal,
  orchestrationsView,
  ORCH_FEEDBACK_INPUT,
  parseOrchestrationValue,
  readFeedback,
  readFeedbackMetadata,
  readOrchestrationForm,
  readOrchestrationMetadata,
  type FeedbackKind,
} from "../../views/orchestrations.js";
import type { Command } from "../commandGrammar.js";
import { actorOf, errorText, type BotContext } from "../context.js";
import { askedIn } from "../askedIn.js";
import type { Reply } from "./runs.js";

/** `/codex orchestrations`: answered through the response URL. */
export async function orchestrationCommand(
  ctx: BotContext,
  _cmd: Extract<Command, { kind: "orchestrations" }>,
  actor: Actor,
  _channelId: string,
): Promise<Reply> {
  return orchestrationsView(ctx.locale, await ctx.api.orchestrations.list(actor));
}

/**
 * `/codex orchestrate <project>`: open the creation modal at once (trigger_id lasts 3 s). A project
 * the user may not see is "not found", as a missing one, and no modal opens.
 */
export async function openOrchestrationModal(
  ctx: BotContext,
  client: WebClient,
  cmd: Extract<Command, { kind: "orchestrate" }>,
  triggerId: string,
  channelId: string,
  actor: Actor,
): Promise<void> {
  const project = await ctx.api.projects.forActor(actor, cmd.project);
  const view = orchestrationModal(ctx.locale, {
    projectId: project.id,
    projectName: project.name,
    channelId,
  });
  await client.views.open({ trigger_id: triggerId, view });
}

/**
 * Orchestration buttons (`orch.*`) and modal submissions. The engine decides who may act (others
 * get "not found") and whether the status allows it (a stale button or a second click gets its
 * conflict): both are shown to the clicking user only. Verification and merges run git and tests,
 * which can take minutes: they start behind the ack queue without holding it, and report through
 * the orchestration's thread (the notifier) or, when refused, ephemerally.
 */
export function registerOrchestrationActions(app: App, ctx: BotContext): void {
  registerStepButtons(app, ctx);
  registerFeedback(app, ctx);
  registerCreateModal(app, ctx);
}

/** An ephemeral answer to the person who clicked, beside the message (never replacing it). */
function reply(ctx: BotContext, respond: RespondFn, text: string) {
  return respond({ response_type: "ephemeral", replace_original: false, text }).catch((err) =>
    ctx.logger.warn({ err }, "could not answer an orchestration action"),
  );
}

/** Runs `work` after the ack; a refusal is told to the clicking user. */
function act(
  ctx: BotContext,
  respond: RespondFn,
  work: () => Promise<unknown>,
  opts: { long?: boolean } = {},
): void {
  const run = async () => {
    try {
      await work();
    } catch (err) {
      await reply(ctx, respond, errorText(ctx, err));
    }
  };
  // A long step is started from the queue but not awaited there: the commands behind it must
  // not wait for the tests. The engine's claim keeps a second click from running it twice.
  ctx.afterAck.run(async () => {
    if (opts.long) void run();
    else await run();
  });
}

/** The buttons that move an orchestration on without asking anything: approve, verify, merge. */
function registerStepButtons(app: App, ctx: BotContext): void {
  app.action<BlockButtonAction>(ACTIONS.orchDraftApprove, async ({ ack, body, action, respond }) => {
    await ack();
    const { id, token } = parseOrchestrationValue(action.value ?? "");
    act(ctx, respond, () => ctx.api.orchestrations.approveDraft(actorOf(ctx, body.user.id), id, token));
  });

  app.action<BlockButtonAction>(ACTIONS.orchVerify, async ({ ack, body, action, respond }) => {
    await ack();
    const { id } = parseOrchestrationValue(action.value ?? "");
    act(ctx, respond, () => ctx.api.orchestrations.verify(actorOf(ctx, body.user.id), id), { long: true });
  });

  app.action<BlockButtonAction>(ACTIONS.orchApprove, async ({ ack, body, action, respond }) => {
    await ack();
    const { id, token } = parseOrchestrationValue(action.value ?? "");
    // Without a required confirmation, approving merges at once.
    act(ctx, respond, () => ctx.api.orchestrations.approveRevision(actorOf(ctx, body.user.id), id, token), {
      long: true,
    });
  });

  app.action<BlockButtonAction>(ACTIONS.orchMergeConfirm, async ({ ack, body, action, respond }) => {
    await ack();
    const { id } = parseOrchestrationValue(action.value ?? "");
    act(ctx, respond, () => ctx.api.orchestrations.merge(actorOf(ctx, body.user.id), id, { confirm: true }), {
      long: true,
    });
  });

  app.action<BlockButtonAction>(ACTIONS.orchMergeCancel, async ({ ack, body, action, respond }) => {
    await ack();
    const { id } = parseOrchestrationValue(action.value ?? "");
    act(ctx, respond, () => ctx.api.orchestrations.declineMerge(actorOf(ctx, body.user.id), id));
  });
}

/** Reject and corrections: a button opening a feedback modal, and the modal's submission. */
function registerFeedback(app: App, ctx: BotContext): void {
  openFeedbackOnClick(app, ctx, "reject", ["DRAFT_REVIEW"]);
  openFeedbackOnClick(app, ctx, "corrections", [
    "AGENT_FAILED",
    "AWAITING_VERIFICATION",
    "VERIFICATION_FAILED",
    "USER_REVIEW",
    "AWAITING_MERGE_CONFIRMATION",
  ]);
  submitFeedback(app, ctx, CALLBACKS.orchReject, (actor, id, feedback) =>
    ctx.api.orchestrations.rejectDraft(actor, id, feedback),
  );
  submitFeedback(app, ctx, CALLBACKS.orchCorrections, (actor, id, feedback) =>
    ctx.api.orchestrations.requestCorrections(actor, id, feedback),
  );
}

// Reject and corrections ask for feedback first: the modal opens at once (the trigger_id
// expires after 3 seconds), only for someone who may act and when the status allows it.
function openFeedbackOnClick(app: App, ctx: BotContext, kind: FeedbackKind, allowed: readonly string[]) {
  app.action<BlockButtonAction>(
    kind === "reject" ? ACTIONS.orchDraftReject : ACTIONS.orchCorrections,
    async ({ ack, body, action, client, respond }) => {
      await ack();
      try {
        const o = await ctx.api.orchestrations.get(
          actorOf(ctx, body.user.id),
          parseOrchestrationValue(action.value ?? "").id,
        );
        if (!allowed.includes(o.status))
          throw new EngineError("conflict", "orch_wrong_state", { status: o.status });
        const view = feedbackModal(
          ctx.locale,
          kind,
          o,
          body.channel?.id ? { channelId: body.channel.id } : {},
        );
        await client.views.open({ trigger_id: body.trigger_id, view });
      } catch (err) {
        await reply(ctx, respond, errorText(ctx, err));
      }
    },
  );
}

function submitFeedback(
  app: App,
  ctx: BotContext,
  callbackId: string,
  apply: (actor: Actor, id: string, feedback: string) => Promise<unknown>,
) {
  app.view(callbackId, async ({ ack, body, view }) => {
    const { id } = readFeedbackMetadata(view.private_metadata);
    try {
      await apply(actorOf(ctx, body.user.id), id ?? "", readFeedback(view.state.values));
      await ack();
    } catch (err) {
      await ack({
        response_action: "errors",
        errors: { [ORCH_FEEDBACK_INPUT.blockId]: errorText(ctx, err) },
      });
    }
  });
}

/** The new-orchestration modal's submission: form errors shown in the modal, the thread posted later. */
function registerCreateModal(app: App, ctx: BotContext): void {
  app.view(CALLBACKS.orchCreate, async ({ ack, body, view }) => {
    const actor = actorOf(ctx, body.user.id);
    const meta = readOrchestrationMetadata(view.private_metadata);
    const { form, errors } = readOrchestrationForm(ctx.locale, view.state.values);
    if (Object.keys(errors).length) return void (await ack({ response_action: "errors", errors }));
    try {
      // The thread root is posted by the notifier, in the channel the command came from.
      await ctx.api.orchestrations.create(
        actor,
        { project_id: meta.projectId ?? "", ...form, engine: "codex" },
        meta.channelId
          ? {
              onCreated: askedIn(
                ctx,
                { channel: meta.channelId, threadTs: null, statusTs: null },
                "orchestration",
              ),
            }
          : {},
      );
      await ack();
    } catch (err) {
      const fields =
        isEngineError(err) && err.reason === "orch_invalid"
          ? String(err.params.fields ?? "").split(", ")
          : [];
      await ack({
        response_action: "errors",
        errors: orchestrationFormErrors(ctx.locale, fields, errorText(ctx, err)),
      });
    }
  });
}
