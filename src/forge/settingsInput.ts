import type { EngineApi } from "../engine/api/index.js";
import type { Actor } from "../engine/api/model.js";
import type { ForgeSettings, ForgeThreads } from "./store/threads.js";

// A project's forge front-end settings as a person gives them — `codexpi forge set`, `codexpi
// project set --forge-channel …`, `/codex project set … --forge-channel …` —, checked and applied
// in one place: the same values are refused the same way, with the same rights, whichever way
// they came.

/** The settings as given (words from a command line or a slash command), before they are checked. */
export interface ForgeSettingsInput {
  channel?: string;
  handle?: string;
  triggers?: string;
  fixCi?: string;
  fixCiTries?: string;
  forks?: string;
}

/** What each setting takes, as the usage lines say it (the same in every language). */
export const FORGE_SETTING_SYNTAX: Record<keyof ForgeSettingsInput, string> = {
  channel: "C…|#channel|none",
  handle: "NAME (letters, digits, _ or -)",
  triggers: "comments,issues,ci|none",
  fixCi: "on|off",
  fixCiTries: "1…20",
  forks: "on|off",
};

/** A setting given a value it does not take; `setting` names which. */
export class ForgeSettingInvalid extends Error {
  override name = "ForgeSettingInvalid";
  constructor(readonly setting: keyof ForgeSettingsInput) {
    super(`invalid forge setting ${setting}`);
  }
}

/** A channel id as given: `C0123`, `#C0123`, or Slack's `<#C0123|name>`; null when it is none of them. */
function channelId(value: string): string | null {
  const m = /^(?:<#([CG][A-Z0-9]{1,20})(?:\|[^>]*)?>|#?([CG][A-Z0-9]{1,20}))$/.exec(value.trim());
  return m?.[1] ?? m?.[2] ?? null;
}

const onOff = (v: string | undefined, setting: keyof ForgeSettingsInput): "on" | "off" | undefined => {
  if (v === undefined || v === "on" || v === "off") return v;
  throw new ForgeSettingInvalid(setting);
};

/** The changes the given settings make (absent ones stay); throws ForgeSettingInvalid on a bad value. */
export function forgeSettingsChanges(input: ForgeSettingsInput): Partial<ForgeSettings> {
  const changes: Partial<ForgeSettings> = {};
  if (input.channel !== undefined) {
    const id = input.channel === "none" ? null : channelId(input.channel);
    if (id === null && input.channel !== "none") throw new ForgeSettingInvalid("channel");
    changes.channel_id = id;
  }
  if (input.handle !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(input.handle)) throw new ForgeSettingInvalid("handle");
    changes.handle = input.handle;
  }
  if (input.triggers !== undefined) {
    const triggers = input.triggers === "none" ? "" : input.triggers;
    if (!/^((comments|issues|ci)(,(comments|issues|ci))*)?$/.test(triggers))
      throw new ForgeSettingInvalid("triggers");
    changes.triggers = triggers;
  }
  const fixCi = onOff(input.fixCi, "fixCi");
  if (fixCi !== undefined) changes.fix_ci = fixCi;
  if (input.fixCiTries !== undefined) {
    if (!/^([1-9]|1[0-9]|20)$/.test(input.fixCiTries)) throw new ForgeSettingInvalid("fixCiTries");
    changes.fix_ci_tries = Number(input.fixCiTries);
  }
  const forks = onOff(input.forks, "forks");
  if (forks !== undefined) changes.forks = forks;
  return changes;
}

/** A project's name and its forge settings after a change. */
export interface ChangedSettings {
  name: string;
  settings: ForgeSettings;
}

/**
 * Applies checked changes to a project's settings, as `actor`: an admin only (the settings say
 * where a forge's requests are posted and what they may start); answers the project's name and
 * its settings now. No change only reads them (still an admin's).
 */
export async function changeForgeSettings(
  api: EngineApi,
  threads: ForgeThreads,
  actor: Actor,
  name: string,
  changes: Partial<ForgeSettings>,
  now: number,
): Promise<ChangedSettings> {
  api.projects.assertAdmin(actor);
  const project = await api.projects.forActor(actor, name);
  const settings = Object.keys(changes).length
    ? await threads.setSettings(project.id, changes, now)
    : await threads.settings(project.id);
  return { name: project.name, settings };
}
