import { type Locale, t } from "../../i18n/index.js";

/**
 * The standing instructions a conversation was started with (its channel's settings, set by the
 * project's owner or an admin), after codexpi's protocol in Codex's developer instructions: at
 * every turn, labelled as the channel's, never mixed into the person's prompt. None: the protocol
 * alone.
 */
export function withPlaceInstructions(protocol: string, instructions: string | null, locale: Locale): string {
  const text = instructions?.trim();
  if (!text) return protocol;
  return [
    protocol,
    `${t(locale, "agent.place_instructions.open")}\n${text}\n${t(locale, "agent.place_instructions.close")}`,
  ].join("\n\n");
}
