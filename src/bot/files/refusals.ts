import type { Config } from "../../config.js";
import { formatBytes, type FileRefused } from "../../engine/api/model.js";
import { t, type Locale } from "../../i18n/index.js";
import { oneLineName, utcTime } from "../../engine/api/model.js";
import { escapeMrkdwn } from "../../views/mrkdwn.js";

/** The limits a refusal's reason quotes. */
export type FileLimits = Config["files"];

/** A file not taken: why, and the earlier message of the thread it came from, if any. */
type Refused = FileRefused & { detail?: string; from?: { author: string; at: number } };

/** One refused file as a line: its name and why, with the limit it broke. */
function refusalLine(locale: Locale, r: Refused, limits: FileLimits, out: boolean): string {
  const limit = formatBytes(out ? limits.maxOutBytes : limits.maxFileBytes);
  const reason = t(locale, `files.reason.${r.reason}`, {
    size: r.size === undefined ? "?" : formatBytes(r.size),
    limit: r.reason === "message_too_large" ? formatBytes(limits.maxMessageBytes) : limit,
    count: String(out ? limits.maxOutCount : limits.maxCount),
    detail: r.detail ?? "",
  });
  if (!r.from) return t(locale, "files.refused_line", { name: r.name, reason });
  // A file of an earlier message of the thread: whose (a name is someone's words), and when.
  const from = { author: escapeMrkdwn(oneLineName(r.from.author)), at: utcTime(r.from.at) };
  return t(locale, "files.refused_line_from", { name: r.name, reason, ...from });
}

/** The thread's notice naming the files not taken, in (shared with a prompt) or out (handed back). */
export function refusalNotice(
  locale: Locale,
  refused: readonly Refused[],
  limits: FileLimits,
  direction: "in" | "out",
): string {
  const list = refused.map((r) => refusalLine(locale, r, limits, direction === "out")).join("\n");
  return t(locale, direction === "in" ? "files.refused_in" : "files.refused_out", { list });
}
