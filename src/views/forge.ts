import type { ForgeView } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { context, section, type SlackMessage } from "./blocks.js";
import { BLOCKS } from "./ids.js";
import { escapeClip } from "./mrkdwn.js";

// `/codex project forge NAME` (issue 32, item 6): a project's forge settings as an admin reads
// them in Slack — the remote and its URL, the forge, its API and the repository (what was set and
// what was derived from the remote), which token is stored, and what its lanes' cards can offer.
// Never a token: the view is given only where one is stored, and says that tokens are set on the
// host's command line.

/** Inline code that cannot close its span. */
const code = (text: string, max = 200): string => `\`${escapeClip(text.replace(/`/g, "'"), max)}\``;

/** A value and where it comes from: set by an admin, derived from the remote, or none. */
function origin(locale: Locale, set: string | null, effective: string | null | undefined): string {
  if (set !== null) return t(locale, "forge.view.set", { value: code(set) });
  if (effective) return t(locale, "forge.view.derived", { value: code(effective) });
  return t(locale, "forge.view.none");
}

/** The settings, and (`changed`) that they were just changed. */
export function forgeSettingsView(locale: Locale, v: ForgeView, opts: { changed: boolean }): SlackMessage {
  const yes = (on: boolean) => t(locale, on ? "forge.view.yes" : "forge.view.no");
  const lines = [
    `*${t(locale, opts.changed ? "forge.view.title_changed" : "forge.view.title", { name: code(v.name, 100) })}*`,
    t(locale, "forge.view.remote", {
      remote: code(v.remote, 100),
      url: v.remoteUrl === null ? t(locale, "forge.view.no_remote") : code(v.remoteUrl),
    }),
    t(locale, "forge.view.kind", { value: origin(locale, v.set.forge, v.effective?.forge) }),
    t(locale, "forge.view.url", { value: origin(locale, v.set.forgeUrl, v.effective?.forgeUrl) }),
    t(locale, "forge.view.repo", { value: origin(locale, v.set.forgeRepo, v.effective?.forgeRepo) }),
    t(locale, `forge.view.token_${v.token ?? "none"}`),
    t(locale, "forge.view.lanes", { push: yes(v.publishing.push), pr: yes(v.publishing.pullRequest) }),
  ];
  const name = escapeClip(v.name, 100);
  return {
    text: lines[0] as string,
    blocks: [
      section(lines.join("\n"), { blockId: BLOCKS.forgeSettings }),
      context([t(locale, "forge.view.change", { name }), t(locale, "forge.view.token_cli", { name })]),
    ],
  };
}
