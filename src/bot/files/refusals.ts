import type { Config } from "../../config.js";
import { formatBytes, type FileRefused } from "../../engine/api/model.js";
import { t, type Locale } from "../../i18n/index.js";

/** The limits a refusal's reason quotes. */
export type FileLimits = Config["files"];

/** One refused file as a line: its name and why, with the limit it broke. */
function refusalLine(
  locale: Locale,
  r: FileRefused & { detail?: string },
  limits: FileLimits,
  out: boolean,
): string {
  const limit = formatBytes(out ? limits.maxOutBytes : limits.maxFileBytes);
  const reason = t(locale, `files.reason.${r.reason}`, {
    size: r.size === undefined ? "?" : formatBytes(r.size),
    limit: r.reason === "message_too_large" ? formatBytes(limits.maxMessageBytes) : limit,
    count: String(out ? limits.maxOutCount : limits.maxCount),
    detail: r.detail ?? "",
  });
  return t(locale, "files.refused_line", { name: r.name, reason });
}

/** The thread's notice naming the files not taken, in (shared with a prompt) or out (handed back). */
export function refusalNotice(
  locale: Locale,
  refused: ReadonlyArray<FileRefused & { detail?: string }>,
  limits: FileLimits,
  direction: "in" | "out",
): string {
  const list = refused.map((r) => refusalLine(locale, r, limits, direction === "out")).join("\n");
  return t(locale, direction === "in" ? "files.refused_in" : "files.refused_out", { list });
}
