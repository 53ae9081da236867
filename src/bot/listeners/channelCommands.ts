import type { WebClient } from "@slack/web-api";
import {
  type Actor,
  EngineError,
  isEngineError,
  MAX_PLACE_INSTRUCTIONS,
  type PlaceSettings,
  allowedModels,
} from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { channelSettingsText } from "../../views/channelSettings.js";
import { channelMention } from "../../views/mrkdwn.js";
import type { ChannelCommand } from "../channelGrammar.js";
import { errorText, type BotContext } from "../context.js";
import type { ChannelSettingsChange } from "../store/channelDefaults.js";
import type { Reply } from "./runs.js";

// `/codex channel …` and `/codex project share|unshare …` (issue 32, item 4). A channel's settings
// are the bot's rows (a channel is a Slack notion); who may change them is the engine's word: the
// owner of the project they are for, or an admin. They reach the engine as a request's `place`.

type Of<K extends ChannelCommand["kind"]> = Extract<ChannelCommand, { kind: K }>;

/** The settings a request written in this channel runs with (null: none; never in a DM). */
export async function placeOf(ctx: BotContext, channel: string): Promise<PlaceSettings | null> {
  return ctx.channelDefaults.settings(channel);
}

/** `/codex channel`: anyone in the channel may read its settings (a hidden project stays unnamed). */
export async function channelShow(ctx: BotContext, actor: Actor, channel: string): Promise<Reply> {
  const s = await ctx.channelDefaults.settings(channel);
  if (!s) return { text: channelSettingsText(ctx.locale, null, channel) };
  const project = (await ctx.api.projects.list(actor)).find((p) => p.id === s.projectId);
  return {
    text: channelSettingsText(ctx.locale, { channel, projectName: project?.name ?? null, ...s }, channel),
  };
}

/**
 * The project named, if the actor may configure it for a channel (its owner, an admin): "not
 * found" for those who cannot see it, else said who may.
 */
async function ownedProject(ctx: BotContext, actor: Actor, name: string) {
  try {
    return await ctx.api.projects.forOwner(actor, name);
  } catch (err) {
    if (isEngineError(err) && err.reason === "not_allowed_to_drive")
      throw new EngineError("forbidden", "channel_owner_only", { name });
    throw err;
  }
}

/**
 * The channel's current project, if the actor may change its settings (its owner, an admin);
 * forbidden otherwise. A project removed since: anyone who may set one may clear what is left.
 */
async function ownedProjectOf(ctx: BotContext, actor: Actor, projectId: string) {
  const project = (await ctx.api.projects.list(actor)).find((p) => p.id === projectId);
  if (!project) throw new EngineError("forbidden", "channel_owner_only", { name: "" });
  return ownedProject(ctx, actor, project.name);
}

/** `/codex channel set key=value…`: every value checked before anything is written. */
export async function channelSet(ctx: BotContext, cmd: Of<"channel.set">, actor: Actor, channel: string) {
  const { project: name, model, effort, instructions } = cmd.settings;
  const current = await ctx.channelDefaults.settings(channel);
  if (!name && !current) throw new EngineError("invalid", "channel_needs_project");
  const project = name
    ? await ownedProject(ctx, actor, name)
    : await ownedProjectOf(ctx, actor, current?.projectId ?? "");
  if (model !== undefined) {
    const allowed = allowedModels(project);
    if (!allowed.length)
      throw new EngineError("invalid", "request_model_none", { model, name: project.name });
    if (!allowed.includes(model))
      throw new EngineError("invalid", "request_model_not_allowed", {
        model,
        name: project.name,
        allowed: allowed.join(", "),
      });
  }
  if (instructions !== undefined && instructions.length > MAX_PLACE_INSTRUCTIONS)
    throw new EngineError("invalid", "channel_setting_invalid", {
      max: MAX_PLACE_INSTRUCTIONS,
      length: instructions.length,
    });
  const change: ChannelSettingsChange = { projectId: project.id };
  if (model !== undefined) change.model = model;
  if (effort !== undefined) change.effort = effort;
  if (instructions !== undefined) change.instructions = instructions;
  await ctx.channelDefaults.change(channel, change, actor.userId);
  return channelShow(ctx, actor, channel);
}

/** `/codex channel unset key…` and `clear`: unsetting the project clears them all. */
export async function channelUnset(ctx: BotContext, cmd: Of<"channel.unset">, actor: Actor, channel: string) {
  const current = await ctx.channelDefaults.settings(channel);
  if (!current) return { text: t(ctx.locale, "channel.unset_nothing", { channel: channelMention(channel) }) };
  if (!actor.isAdmin) await ownedProjectOf(ctx, actor, current.projectId);
  if (cmd.keys.includes("project")) {
    await ctx.channelDefaults.clear(channel);
    return { text: t(ctx.locale, "channel.cleared", { channel: channelMention(channel) }) };
  }
  const change: ChannelSettingsChange = {};
  for (const key of cmd.keys) if (key !== "project") change[key] = null;
  await ctx.channelDefaults.change(channel, change, actor.userId);
  return channelShow(ctx, actor, channel);
}

/** A `channel set`/`unset` refused by the grammar: which word, and what it may have meant. */
export function channelRefused(ctx: BotContext, cmd: Of<"channel.refused">): Reply {
  if (cmd.problem === "unknown_key")
    return {
      text: cmd.suggestion
        ? t(ctx.locale, "channel.unknown_key_suggest", { key: cmd.key, suggestion: cmd.suggestion })
        : t(ctx.locale, "channel.unknown_key", { key: cmd.key }),
    };
  if (cmd.problem === "effort")
    return {
      text: errorText(
        ctx,
        new EngineError("invalid", "request_effort_invalid", { value: cmd.value, allowed: cmd.allowed }),
      ),
    };
  return {
    text: t(ctx.locale, cmd.problem === "empty" ? "channel.empty" : "channel.repeated", { key: cmd.key }),
  };
}

/**
 * `/codex project share NAME #channel [--prompt]` (its owner or an admin), in one step: the
 * channel's members read it (and prompt it), it becomes the channel's project, and the bot joins
 * the channel so that replies in its threads reach it (`refuse`: why it cannot, nothing changed).
 */
export async function projectShare(
  ctx: BotContext,
  cmd: Of<"project.share">,
  actor: Actor,
  client: WebClient,
  refuse: (ctx: BotContext, client: WebClient, channel: string) => Promise<string | null>,
): Promise<Reply> {
  const owned = await ownedProject(ctx, actor, cmd.name);
  const refused = await refuse(ctx, client, cmd.channel);
  if (refused) return { text: refused };
  const p = await ctx.api.projects.share(actor, owned.name, cmd.channel, cmd.prompt);
  await ctx.channelDefaults.set(cmd.channel, p.id, actor.userId);
  return {
    text: t(ctx.locale, cmd.prompt ? "project.shared_prompt" : "project.shared", {
      name: p.name,
      channel: channelMention(cmd.channel),
    }),
  };
}

/** `/codex project unshare NAME #channel`: no longer shared, nor the channel's project. */
export async function projectUnshare(
  ctx: BotContext,
  cmd: Of<"project.unshare">,
  actor: Actor,
): Promise<Reply> {
  await ownedProject(ctx, actor, cmd.name);
  const { project, removed } = await ctx.api.projects.unshare(actor, cmd.name, cmd.channel);
  if ((await ctx.channelDefaults.get(cmd.channel)) === project.id)
    await ctx.channelDefaults.clear(cmd.channel);
  return {
    text: t(ctx.locale, removed ? "project.unshared" : "project.unshared_none", {
      name: project.name,
      channel: channelMention(cmd.channel),
    }),
  };
}
