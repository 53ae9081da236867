import type { DirectSetupResult } from "../engine/api/setup.js";
import { t, type Locale } from "../i18n/index.js";
import { escapeClip } from "./mrkdwn.js";

/** What a direct run of a setup answered, as people read it (Slack and the CLI); the tail is escaped and redacted. */
export function setupResultText(locale: Locale, r: DirectSetupResult): string {
  if (r.outcome === "none") return t(locale, "setup.result.none", { name: r.project });
  if (r.outcome === "ok") return t(locale, "setup.result.ok", { name: r.project, seconds: r.seconds });
  const why = r.why === "exit" ? `exit ${r.code ?? "?"}` : r.why;
  // The end of the tail is where a failure says why.
  const tail = r.tail.length > 2500 ? `…${r.tail.slice(-2500)}` : r.tail;
  return t(locale, "setup.result.failed", { name: r.project, why, tail: escapeClip(tail, 2600) });
}
