import { t, type Locale } from "../i18n/index.js";
import { escapeClip } from "./mrkdwn.js";

/** A code span of words an agent chose: escaped, clipped, no backtick to close it early. */
const code = (text: string): string => `\`${escapeClip(text.replace(/`/g, "'"), 200)}\``;

/** One refused destination, as the engine's event names it. */
export interface RefusedDestination {
  host: string;
  port: number;
  reason: string;
}

/** How the allow command names a destination: the host alone for the web's ports. */
const entryOf = (r: RefusedDestination): string =>
  r.port === 443 || r.port === 80 ? r.host : `${r.host}:${r.port}`;

/**
 * The thread's notice of a turn's refused connections: each host, why, and the command an admin
 * runs to allow it (Slack's and the CLI's). The host is the agent's words: always in code spans.
 */
export function egressRefusedText(
  locale: Locale,
  project: string,
  refused: readonly RefusedDestination[],
): string {
  const lines = refused.map((r) => {
    const entry = entryOf(r);
    const why = t(
      locale,
      r.reason === "private_address" ? "egress.reason.private" : "egress.reason.not_listed",
    );
    return t(locale, "egress.refused_line", {
      host: code(`${r.host}:${r.port}`),
      why,
      command: code(`/codex project allow-host ${project} ${entry}`),
      cli: code(`codexpi project allow-host ${project} ${entry}`),
    });
  });
  return [t(locale, "egress.refused_head", { project }), ...lines].join("\n");
}
