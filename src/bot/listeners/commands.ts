import { type Actor, EngineError, allowedModels, projectNetwork } from "../../engine/api/model.js";
import { hostsChangeText, networkSetText } from "../../views/network.js";
import type { App } from "@slack/bolt";
import { currentRequest } from "../intake/context.js";
import { askedIn } from "../askedIn.js";
import type { WebClient } from "@slack/web-api";
import { joinProjectChannel } from "../projectChannel.js";
import { policyModal } from "../../views/policy.js";
import { channelMention, userMention } from "../../views/mrkdwn.js";
import { t } from "../../i18n/index.js";
import { helpView, projectsView, statusView, unknownCommand, usage } from "../../views/commands.js";
import {
  decisionsView,
  incidentsView,
  notifyView,
  specialistAddModal,
  specialistsView,
} from "../../views/coordination.js";
import { pendingApprovalItems } from "../approvalLinks.js";
import { parseCommand, type Command, type ProjectChanges } from "../commandGrammar.js";
import { actorOf, errorText, readerOf, type BotContext } from "../context.js";

import { openRunModal, runCommand, type Reply } from "./runs.js";
import { openOrchestrationModal, orchestrationCommand } from "./orchestrations.js";
import { budgetClearCommand, budgetListCommand, budgetSetCommand, usageCommand } from "./usageCommands.js";
import { auditCommand, scheduleAdd, scheduleChange } from "./schedules.js";
import { memoryCommand, rememberCommand } from "./memory.js";
import { setupCommand } from "./setupCommand.js";
import {
  channelRefused,
  channelSet,
  channelShow,
  channelUnset,
  placeOf,
  projectShare,
  projectUnshare,
} from "./channelCommands.js";
import { projectForgeCommand } from "./forgeCommand.js";
import { forgeChannelOf, forgeFrontEndRefusal, setForgeFrontEnd } from "./forgeSettingsCommand.js";

/**
 * `/codex`: parse, ack at once (usage and help inline), then do the work and answer through the
 * response URL, so that the 3-second ack never waits on the database or Codex.
 */
export function registerCommands(app: App, ctx: BotContext): void {
  app.command("/codex", async ({ command, ack, respond, client }) => {
    const parsed = parseCommand(command.text ?? "");
    const actor = actorOf(ctx, command.user_id);
    if (parsed.kind === "usage")
      return ack({ response_type: "ephemeral", text: usage(ctx.locale, parsed.topic) });
    if (parsed.kind === "unknown")
      return ack({
        response_type: "ephemeral",
        text: unknownCommand(ctx.locale, parsed.command, parsed.suggestion),
      });
    if (parsed.kind === "help")
      return ack({
        response_type: "ephemeral",
        ...helpView(ctx.locale, { isAdmin: actor.isAdmin }),
      });
    await ack();
    if (parsed.kind === "policy") {
      if (!actor.isAdmin)
        return void (await respond({
          response_type: "ephemeral",
          text: errorText(ctx, new EngineError("forbidden", "admins_only")),
        }));
      const view = policyModal(ctx.locale, await ctx.api.policies.global(), {
        channelId: command.channel_id,
      });
      await client.views.open({ trigger_id: command.trigger_id, view }).catch(async (err) => {
        ctx.logger.warn({ err }, "could not open the policy modal");
        await respond({ response_type: "ephemeral", text: errorText(ctx, err) });
      });
      return;
    }
    if (
      parsed.kind === "run.start" ||
      (parsed.kind === "run.resume" && parsed.revise) ||
      parsed.kind === "orchestrate"
    ) {
      // Modals open at once, not behind the queue: the trigger_id expires after 3 seconds.
      const open =
        parsed.kind === "orchestrate"
          ? openOrchestrationModal(ctx, client, parsed, command.trigger_id, command.channel_id, actor)
          : openRunModal(ctx, client, parsed, command.trigger_id, command.channel_id, actor);
      await open.catch(
        async (err) => void (await respond({ response_type: "ephemeral", text: errorText(ctx, err) })),
      );
      return;
    }
    if (parsed.kind === "specialist.add") {
      // At once, not behind the queue: the trigger_id expires after 3 seconds.
      if (parsed.shared && !actor.isAdmin)
        return void (await respond({
          response_type: "ephemeral",
          text: errorText(ctx, new EngineError("forbidden", "admins_only")),
        }));
      const view = specialistAddModal(ctx.locale, { channelId: command.channel_id, shared: parsed.shared });
      await client.views.open({ trigger_id: command.trigger_id, view }).catch(async (err) => {
        ctx.logger.warn({ err }, "could not open the specialist modal");
        await respond({ response_type: "ephemeral", text: errorText(ctx, err) });
      });
      return;
    }
    if (parsed.kind === "setup") {
      // Not behind the queue: a setup may run for minutes, and every other command would wait.
      setupCommand(ctx, command.user_id, command.channel_id, parsed.project, respond);
      return;
    }
    ctx.afterAck.run(
      async () => {
        let reply: CommandReply;
        try {
          reply = await run(ctx, parsed, command.user_id, command.channel_id, client);
        } catch (err) {
          reply = { text: errorText(ctx, err) };
        }
        const { ackOf, ...shown } = reply;
        // Not awaited: the queue serialises database work, not round trips to Slack.
        respond({ response_type: "ephemeral", replace_original: false, ...shown })
          .then(() => ackOf && ctx.acks.sent(ackOf, respond))
          .catch((err) => ctx.logger.warn({ err }, "could not answer a /codex command"));
        // An ask's prompt carries the request's key; other commands run at most once.
      },
      { replaySafe: parsed.kind === "ask" },
    );
  });
}

/** The commands answered after the ack, through the response URL; the others are answered in the ack. */
type AfterAckCommand = Exclude<
  Command,
  {
    kind: "usage" | "unknown" | "help" | "specialist.add" | "policy" | "run.start" | "orchestrate" | "setup";
  }
>;
type CommandOfKind = { [C in AfterAckCommand as C["kind"]]: C };

/** What a handler is given besides its command: who asks, from where, and the Slack client. */
interface CommandScope {
  ctx: BotContext;
  actor: Actor;
  userId: string;
  channelId: string;
  client: WebClient;
}

/** A command's answer; `ackOf`: the conversation whose root replaces it (an ask's acknowledgement). */
type CommandReply = Reply & { ackOf?: string };

type Handler<K extends keyof CommandOfKind> = (
  cmd: CommandOfKind[K],
  scope: CommandScope,
) => Promise<CommandReply>;

// One handler per sub-command; the mapped type makes a sub-command without a handler a compile error.
const handlers: { [K in keyof CommandOfKind]: Handler<K> } = {
  ask: askCommand,
  projects: projectsCommand,
  status: async (_cmd, { ctx, actor }) => statusView(ctx.locale, await ctx.api.conversations.status(actor)),
  "project.add": projectAddCommand,
  "project.remove": projectRemoveCommand,
  "project.set": projectSetCommand,
  "project.allow": projectAllowCommand,
  "project.hosts": projectHostsCommand,
  "project.forge": (cmd, { ctx, actor }) => projectForgeCommand(ctx, cmd, actor),
  decisions: decisionsCommand,
  incidents: async (_cmd, { ctx, actor }) =>
    incidentsView(ctx.locale, await ctx.api.coordination.incidents(actor)),
  specialists: async (_cmd, { ctx, actor }) =>
    specialistsView(ctx.locale, await ctx.api.coordination.specialists(actor)),
  run: (cmd, { ctx, actor, channelId }) => runCommand(ctx, cmd, actor, channelId),
  "run.resume": (cmd, { ctx, actor, channelId }) => runCommand(ctx, cmd, actor, channelId),
  "run.cancel": (cmd, { ctx, actor, channelId }) => runCommand(ctx, cmd, actor, channelId),
  orchestrations: (cmd, { ctx, actor, channelId }) => orchestrationCommand(ctx, cmd, actor, channelId),
  notify: notifyCommand,
  "usage.show": (cmd, { ctx, actor }) => usageCommand(cmd, ctx, actor),
  "budget.set": (cmd, { ctx, actor }) => budgetSetCommand(cmd, ctx, actor),
  "budget.clear": (cmd, { ctx, actor }) => budgetClearCommand(cmd, ctx, actor),
  "budget.list": (_cmd, { ctx, actor }) => budgetListCommand(ctx, actor),
  "schedule.add": (cmd, { ctx, actor, channelId }) => scheduleAdd(ctx, cmd, actor, channelId),
  "schedule.list": (cmd, { ctx, actor }) => scheduleChange(ctx, cmd, actor),
  "schedule.pause": (cmd, { ctx, actor }) => scheduleChange(ctx, cmd, actor),
  "schedule.resume": (cmd, { ctx, actor }) => scheduleChange(ctx, cmd, actor),
  "schedule.remove": (cmd, { ctx, actor }) => scheduleChange(ctx, cmd, actor),
  audit: (cmd, { ctx, actor }) => auditCommand(ctx, cmd, actor),
  "channel.show": (_cmd, { ctx, actor, channelId }) => channelShow(ctx, actor, channelId),
  "channel.set": (cmd, { ctx, actor, channelId }) => channelSet(ctx, cmd, actor, channelId),
  "channel.unset": (cmd, { ctx, actor, channelId }) => channelUnset(ctx, cmd, actor, channelId),
  "channel.refused": async (cmd, { ctx }) => channelRefused(ctx, cmd),
  "project.share": (cmd, { ctx, actor, client }) => projectShare(ctx, cmd, actor, client, refuseChannel),
  "project.unshare": (cmd, { ctx, actor }) => projectUnshare(ctx, cmd, actor),
  "memory.remember": (cmd, { ctx, actor, channelId }) => rememberCommand(ctx, cmd, actor, channelId),
  "memory.list": (cmd, { ctx, actor, channelId }) => memoryCommand(ctx, cmd, actor, channelId),
  "forge.link": forgeLinkCommand,
};

function handle<K extends keyof CommandOfKind>(kind: K, cmd: CommandOfKind[K], scope: CommandScope) {
  return handlers[kind](cmd, scope);
}

async function run(
  ctx: BotContext,
  cmd: AfterAckCommand,
  userId: string,
  channelId: string,
  client: WebClient,
): Promise<CommandReply> {
  // With the channels they belong to: a project visible to its channel's members is theirs to
  // read (status, projects); what they may prompt the engine decides regardless.
  const actor = await readerOf(ctx, userId, channelId);
  return handle(cmd.kind, cmd, { ctx, actor, userId, channelId, client });
}

async function askCommand(
  cmd: CommandOfKind["ask"],
  { ctx, actor, channelId }: CommandScope,
): Promise<CommandReply> {
  // In a channel with settings, a first word naming no project is the prompt's, for the channel's
  // project; the settings go with a request in that project (the engine decides which apply).
  const place = await placeOf(ctx, channelId);
  const target = place
    ? await ctx.api.projects.promptTarget(actor, cmd.text, { channelDefault: place.projectId, dm: false })
    : null;
  const [project, prompt] =
    target?.kind === "project" ? [target.project, target.prompt] : [cmd.project, cmd.prompt];
  // The thread is the state message the notifier posts as its root.
  const started = await ctx.api.conversations.ask(actor, project, prompt, {
    ...currentRequest(),
    place,
    // Where it was started, for the notes kept for this channel (`/codex remember --here`).
    placeId: channelId,
    onCreated: askedIn(ctx, { channel: channelId, threadTs: null, statusTs: null, origin: "command" }),
  });
  const position = await ctx.api.conversations.queuePosition(started.item.id);
  return {
    text:
      position === null ? t(ctx.locale, "notice.working") : t(ctx.locale, "notice.queued", { n: position }),
    // Removed once the conversation's root (which shows the same state) is in the channel.
    ackOf: started.item.conversation_id,
  };
}

/** `/codex forge link github|gitlab`: a one-time code the person posts on the forge to prove their account. */
async function forgeLinkCommand(
  cmd: CommandOfKind["forge.link"],
  { ctx, userId }: CommandScope,
): Promise<CommandReply> {
  if (!ctx.forge) throw new EngineError("unavailable", "forge_not_running");
  const code = await ctx.forge.linkCode(cmd.forge, userId);
  return { text: t(ctx.locale, "forge.link.code", { forge: cmd.forge, code }) };
}

async function projectsCommand(
  _cmd: CommandOfKind["projects"],
  { ctx, actor }: CommandScope,
): Promise<Reply> {
  const projects = await ctx.api.projects.list(actor);
  return projectsView(
    ctx.locale,
    projects.map((p) => ({
      name: p.name,
      path: p.path,
      ownerId: p.owner_id,
      fullAccess: p.full_access === 1,
      mergeConfirmation: p.merge_confirmation_required === 1,
      approvalsOnRequest: p.approval_mode === "on-request",
      steer: p.steer === 1,
      threadsToAuthor: p.thread_prompters === "author",
      workspaceMode: p.workspace_mode,
      allowedModels: allowedModels(p),
      channelId: p.channel_id,
      role: p.role,
      visibleToChannel: p.visibility === "channel",
      // Who may change it sees it (DESIGN: a project's isolation extras, for admins).
      ...(actor.isAdmin || p.owner_id === actor.userId ? { network: projectNetwork(p) } : {}),
    })),
  );
}

async function projectAddCommand(
  cmd: CommandOfKind["project.add"],
  { ctx, actor, client }: CommandScope,
): Promise<Reply> {
  ctx.api.projects.assertAdmin(actor);
  const refused = cmd.channel ? await refuseChannel(ctx, client, cmd.channel) : null;
  if (refused) return { text: refused };
  const p = await ctx.api.projects.add(actor, {
    name: cmd.name,
    path: cmd.path,
    ownerId: cmd.owner,
    channelId: cmd.channel,
    fullAccess: cmd.fullAccess,
    mergeConfirmation: cmd.mergeConfirmation,
    role: cmd.role,
  });
  return { text: t(ctx.locale, "project.added", { name: p.name, path: p.path }) };
}

async function projectRemoveCommand(
  cmd: CommandOfKind["project.remove"],
  { ctx, actor }: CommandScope,
): Promise<Reply> {
  const p = await ctx.api.projects.remove(actor, cmd.name);
  return { text: t(ctx.locale, "project.removed", { name: p.name }) };
}

async function projectSetCommand(
  cmd: CommandOfKind["project.set"],
  { ctx, actor, client }: CommandScope,
): Promise<Reply> {
  const {
    maxConcurrent,
    defaultFor,
    visible,
    steer,
    workspace,
    network,
    setup,
    threadPrompters,
    forgeFrontEnd,
    forgeSecretGiven,
    ...changes
  } = cmd.changes;
  const forgeRefused = forgeFrontEndRefusal(ctx, actor, cmd.name, forgeFrontEnd, forgeSecretGiven);
  if (forgeRefused) return { text: forgeRefused };
  const forgeChannel = forgeChannelOf(forgeFrontEnd);
  const forgeChannelRefused = forgeChannel ? await refuseChannel(ctx, client, forgeChannel) : null;
  if (forgeChannelRefused) return { text: forgeChannelRefused };
  if (changes.channel) {
    // Only an admin may move a project's channel: checked before the bot joins anything.
    ctx.api.projects.assertAdmin(actor);
    await ctx.api.projects.forOwner(actor, cmd.name);
    const refused = await refuseChannel(ctx, client, changes.channel);
    if (refused) return { text: refused };
  }
  // A channel's default only needs the project's owner; every other change, an admin.
  if (setup !== undefined) await ctx.api.setup.setCommand(actor, cmd.name, setup);
  const p =
    Object.keys(changes).length || maxConcurrent !== undefined
      ? await ctx.api.projects.update(actor, cmd.name, changes)
      : await ctx.api.projects.forOwner(actor, cmd.name);
  if (workspace !== undefined) await ctx.api.projects.setWorkspaceMode(actor, p.name, workspace);
  if (defaultFor !== undefined || visible) await ctx.api.projects.forOwner(actor, p.name);
  // Steering, like visibility, is the owner's choice (or an admin's).
  if (steer !== undefined) await ctx.api.projects.setSteer(actor, p.name, steer);
  // Who carries its conversations on, too (DESIGN "A thread is the team's").
  if (threadPrompters !== undefined)
    await ctx.api.projects.setThreadPrompters(actor, p.name, threadPrompters);
  // The network too: its owner may close or open it (private hosts stay an admin's to list).
  const networked =
    network !== undefined ? await ctx.api.projects.setNetworkMode(actor, p.name, network) : null;
  if (defaultFor) await ctx.channelDefaults.set(defaultFor, p.id, actor.userId);
  const cleared = defaultFor === null ? await ctx.channelDefaults.clearProject(p.id) : [];
  if (maxConcurrent !== undefined) await ctx.api.policies.setProjectLimit(actor, p.name, maxConcurrent);
  const q = visible ? await ctx.api.projects.setVisibility(actor, p.name, visible) : p;
  const said = projectSetSentences(ctx, cmd.changes, p.name, cleared, q);
  if (networked) said.push(networkSetText(ctx.locale, networked.name, projectNetwork(networked)));
  if (forgeFrontEnd) said.push(await setForgeFrontEnd(ctx, actor, p.name, forgeFrontEnd));
  return { text: said.length ? said.join("\n") : t(ctx.locale, "project.updated", { name: p.name }) };
}

/** What `--models` left: the models a request may name, or only the configured one. */
const modelsSentence = (ctx: BotContext, name: string, models: string[]) =>
  models.length
    ? t(ctx.locale, "project.models_set", { name, models: models.join(", ") })
    : t(ctx.locale, "project.models_default", { name });

/** One sentence per thing `project set` changed that deserves its own; none says just "updated". */
function projectSetSentences(
  ctx: BotContext,
  { defaultFor, steer, host, visible, workspace, models, threadPrompters }: ProjectChanges,
  name: string,
  cleared: string[],
  after: { name: string; channel_id: string | null; allowed_models: string | null },
): string[] {
  const said: string[] = [];
  if (models !== undefined) said.push(modelsSentence(ctx, name, allowedModels(after)));
  if (defaultFor)
    said.push(t(ctx.locale, "project.default_set", { name, channel: channelMention(defaultFor) }));
  if (defaultFor === null)
    said.push(
      cleared.length
        ? t(ctx.locale, "project.default_cleared", { name, channels: cleared.map(channelMention).join(", ") })
        : t(ctx.locale, "project.default_none", { name }),
    );
  if (steer !== undefined)
    said.push(t(ctx.locale, steer ? "project.steer_on" : "project.steer_off", { name }));
  if (threadPrompters !== undefined)
    said.push(t(ctx.locale, `project.thread_prompters_${threadPrompters}`, { name }));
  if (workspace !== undefined)
    said.push(
      t(ctx.locale, workspace === "direct" ? "project.workspace_direct" : "project.workspace_branch", {
        name,
      }),
    );
  if (host !== undefined)
    said.push(
      host === null
        ? t(ctx.locale, "project.host_none", { name })
        : t(ctx.locale, "project.host_set", { name, host }),
    );
  if (visible === "private") said.push(t(ctx.locale, "project.visible_private", { name: after.name }));
  if (visible === "channel")
    said.push(
      after.channel_id
        ? t(ctx.locale, "project.visible_channel", {
            name: after.name,
            channel: channelMention(after.channel_id),
          })
        : t(ctx.locale, "project.visible_channel_none", { name: after.name }),
    );
  return said;
}

async function projectAllowCommand(
  cmd: CommandOfKind["project.allow"],
  { ctx, actor }: CommandScope,
): Promise<Reply> {
  const p = await ctx.api.projects.setPrompter(actor, cmd.name, cmd.user, cmd.allowed);
  return {
    text: t(ctx.locale, cmd.allowed ? "project.allowed" : "project.disallowed", {
      name: p.name,
      user: userMention(cmd.user),
    }),
  };
}

async function projectHostsCommand(
  cmd: CommandOfKind["project.hosts"],
  { ctx, actor }: CommandScope,
): Promise<Reply> {
  const change = cmd.allowed
    ? await ctx.api.projects.allowHosts(actor, cmd.name, cmd.hosts)
    : await ctx.api.projects.denyHosts(actor, cmd.name, cmd.hosts);
  return { text: hostsChangeText(ctx.locale, { ...change, name: change.project.name }, cmd.allowed) };
}

async function decisionsCommand(
  _cmd: CommandOfKind["decisions"],
  { ctx, actor, client }: CommandScope,
): Promise<Reply> {
  return decisionsView(
    ctx.locale,
    await ctx.api.decisions.list(actor),
    await pendingApprovalItems(ctx, client, actor),
  );
}

async function notifyCommand(cmd: CommandOfKind["notify"], { ctx, userId }: CommandScope): Promise<Reply> {
  const current = await ctx.api.coordination.preferences(userId);
  const prefs = cmd.change
    ? await ctx.api.coordination.setPreferences(actorOf(ctx, userId), {
        ...current,
        [cmd.change.key]: cmd.change.on,
      })
    : current;
  return notifyView(ctx.locale, prefs);
}

/**
 * Joins a project's channel (see projectChannel.ts); the sentence refusing the change when the bot
 * cannot be there (nothing is changed then), else null.
 */
async function refuseChannel(ctx: BotContext, client: WebClient, channel: string): Promise<string | null> {
  const refusal = await joinProjectChannel(client, channel);
  if (!refusal) return null;
  return refusal.reason === "invite_first"
    ? t(ctx.locale, "project.channel_invite_first", {
        channel: channelMention(channel),
        bot: userMention(ctx.botUserId),
      })
    : t(ctx.locale, "project.channel_join_failed", { channel: channelMention(channel), code: refusal.code });
}
