import { CLI_ACTOR } from "../engine/api/model.js";
import {
  changeForgeSettings,
  FORGE_SETTING_SYNTAX,
  ForgeSettingInvalid,
  type ForgeSettingsInput,
  forgeSettingsChanges,
} from "../forge/settingsInput.js";
import { ForgePolling } from "../forge/store/polling.js";
import { DEFAULT_HANDLE, type ForgeSettings, ForgeThreads } from "../forge/store/threads.js";
import { t } from "../i18n/index.js";
import { type cliEngine, cliLocale, out, UsageError } from "./context.js";

// The forge front end's settings from the command line, shared by `codexpi forge set NAME
// --channel …` and `codexpi project set NAME --forge-channel …` (issue 33, item 6): one check of
// the values (src/forge/settingsInput.ts), the webhook secret read from standard input only (like
// the forge token: an argument shows in `ps` and shell history), one line saying the result.

/** What a command was given: the settings, and what to do with the webhook secret. */
export interface ForgeFrontEndOptions {
  settings: ForgeSettingsInput;
  /** `-`: read it from standard input; anything else is refused before anything is opened. */
  secret?: string;
  removeSecret?: boolean;
  /** Polling (`on`/`off`, installs without a public URL): kept apart from the settings, see ForgePolling. */
  poll?: string;
}

/** The option a setting is given with, in each command (for the error that names it). */
export type OptionNames = Record<keyof ForgeSettingsInput, string>;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** Checks the options before anything is opened; a bad value is a usage error naming its option. */
export function checkForgeFrontEnd(
  o: ForgeFrontEndOptions,
  names: OptionNames,
  secretOption: string,
  pollOption = "--poll",
) {
  if (o.poll !== undefined && o.poll !== "on" && o.poll !== "off")
    throw new UsageError(
      t(cliLocale(), "cli.error.forge_setting", { option: pollOption, value: o.poll, syntax: "on|off" }),
    );
  try {
    const changes = forgeSettingsChanges(o.settings);
    if (o.secret !== undefined && o.secret !== "-")
      throw new UsageError(t(cliLocale(), "cli.error.forge_secret_stdin", { option: secretOption }));
    return changes;
  } catch (err) {
    if (!(err instanceof ForgeSettingInvalid)) throw err;
    throw new UsageError(
      t(cliLocale(), "cli.error.forge_setting", {
        option: names[err.setting],
        value: o.settings[err.setting] ?? "",
        syntax: FORGE_SETTING_SYNTAX[err.setting],
      }),
    );
  }
}

/** Whether any forge front-end option was given. */
export const anyForgeFrontEnd = (o: ForgeFrontEndOptions) =>
  o.secret !== undefined ||
  o.removeSecret === true ||
  o.poll !== undefined ||
  Object.values(o.settings).some((v) => v !== undefined);

/** Applies checked options to project `name` as the operator (an admin) and says the settings now. */
export async function applyForgeFrontEnd(
  { db, api, config, engine }: Awaited<ReturnType<typeof cliEngine>>,
  name: string,
  o: ForgeFrontEndOptions,
  changes: Partial<ForgeSettings>,
): Promise<void> {
  // The project first: an unknown name stores no secret.
  await api.projects.forActor(CLI_ACTOR, name);
  if (o.secret === "-")
    out(
      t(config.locale, "cli.forge.secret_stored", {
        file: await api.forge.setWebhookSecret(CLI_ACTOR, name, await readStdin()),
      }),
    );
  if (o.removeSecret)
    out(
      t(
        config.locale,
        (await api.forge.removeWebhookSecret(CLI_ACTOR, name))
          ? "cli.forge.secret_removed"
          : "cli.forge.secret_absent",
      ),
    );
  const now = await changeForgeSettings(
    api,
    new ForgeThreads(db),
    CLI_ACTOR,
    name,
    changes,
    engine.clock.now(),
  );
  out(
    t(config.locale, "cli.forge.settings", {
      name: now.name,
      channel: now.settings.channel_id ?? "-",
      handle: now.settings.handle ?? DEFAULT_HANDLE,
      triggers: now.settings.triggers || "-",
      fixCi: now.settings.fix_ci,
      tries: now.settings.fix_ci_tries,
    }),
  );
  out(t(config.locale, "cli.forge.forks", { name: now.name, forks: now.settings.forks }));
  // Polling (no public URL): turned on, it reads from now on, never what came before.
  const polling = new ForgePolling(db);
  const project = await api.projects.forActor(CLI_ACTOR, name);
  const polled =
    o.poll === undefined
      ? await polling.pollOf(project.id)
      : await polling.setPoll(project.id, o.poll === "on", engine.clock.now());
  out(t(config.locale, polled.poll === "on" ? "cli.forge.poll_on" : "cli.forge.poll_off"));
}
