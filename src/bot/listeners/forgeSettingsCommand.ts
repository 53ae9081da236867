import type { Actor } from "../../engine/api/model.js";
import { EngineError } from "../../engine/api/model.js";
import { FORGE_SETTING_SYNTAX, ForgeSettingInvalid, forgeSettingsChanges } from "../../forge/index.js";
import { t } from "../../i18n/index.js";
import { channelMention } from "../../views/mrkdwn.js";
import type { ProjectChanges } from "../commandGrammar.js";
import type { BotContext } from "../context.js";

// `/codex project set NAME --forge-channel #channel --forge-triggers comments,issues,ci` (issue 33,
// item 6): the forge front end's settings from Slack, checked and applied by the same code as
// `codexpi forge set` (src/forge/settingsInput.ts), admins only. A webhook secret typed here is
// never kept: a message is no secret.

type Given = ProjectChanges["forgeFrontEnd"];

const OPTION = { channel: "--forge-channel", triggers: "--forge-triggers" } as const;

/**
 * Why the forge options cannot be applied (a secret typed, a value refused), before anything
 * changes; null when they can. Only admins get as far as the values.
 */
export function forgeFrontEndRefusal(
  ctx: BotContext,
  actor: Actor,
  name: string,
  given: Given,
  secretGiven: boolean | undefined,
): string | null {
  if (secretGiven) return t(ctx.locale, "project.forge_secret_in_slack", { name });
  if (!given) return null;
  ctx.api.projects.assertAdmin(actor);
  if (!ctx.forge) throw new EngineError("unavailable", "forge_not_running");
  try {
    forgeSettingsChanges(given);
    return null;
  } catch (err) {
    if (!(err instanceof ForgeSettingInvalid) || !(err.setting in OPTION)) throw err;
    const setting = err.setting as keyof typeof OPTION;
    return t(ctx.locale, "project.forge_setting_invalid", {
      option: OPTION[setting],
      value: given[setting] ?? "",
      syntax: FORGE_SETTING_SYNTAX[setting],
    });
  }
}

/** The channel the options name (to join before it is kept), if any. */
export const forgeChannelOf = (given: Given): string | null =>
  given ? (forgeSettingsChanges(given).channel_id ?? null) : null;

/** Applies the (checked) options as `actor` and says the project's forge settings now. */
export async function setForgeFrontEnd(
  ctx: BotContext,
  actor: Actor,
  name: string,
  given: NonNullable<Given>,
): Promise<string> {
  if (!ctx.forge) throw new EngineError("unavailable", "forge_not_running");
  const now = await ctx.forge.changeSettings(actor, name, given);
  return t(ctx.locale, "project.forge_front_end", {
    name: now.name,
    channel: now.settings.channel_id ? channelMention(now.settings.channel_id) : "-",
    triggers: now.settings.triggers || "-",
  });
}
