import { t, type Locale } from "../i18n/index.js";
import { channelMention, escapeMrkdwn } from "./mrkdwn.js";

/** A channel's settings as `/codex channel` shows them; `projectName` null: one the reader cannot see. */
export interface ChannelSettingsShown {
  channel: string;
  projectName: string | null;
  model: string | null;
  effort: string | null;
  instructions: string | null;
}

/** `/codex channel`: the channel's project and settings, or that it has none, and the way back. */
export function channelSettingsText(
  locale: Locale,
  shown: ChannelSettingsShown | null,
  channel: string,
): string {
  if (!shown) return t(locale, "channel.none", { channel: channelMention(channel) });
  const quoted = (text: string) =>
    text
      .split("\n")
      .map((line) => `> ${escapeMrkdwn(line)}`)
      .join("\n");
  return [
    t(locale, "channel.title", { channel: channelMention(shown.channel) }),
    shown.projectName === null
      ? t(locale, "channel.project_hidden")
      : t(locale, "channel.project", { name: escapeMrkdwn(shown.projectName) }),
    shown.model ? t(locale, "channel.model", { model: shown.model }) : t(locale, "channel.model_default"),
    shown.effort
      ? t(locale, "channel.effort", { effort: shown.effort })
      : t(locale, "channel.effort_default"),
    shown.instructions
      ? t(locale, "channel.instructions", { text: quoted(shown.instructions) })
      : t(locale, "channel.instructions_none"),
    t(locale, "channel.note"),
  ].join("\n");
}
