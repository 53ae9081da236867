import { t, type Locale } from "../i18n/index.js";

/** A duration for people: "42 s", "3 min 5 s", "2 h 7 min" (negative or invalid counts as 0). */
export function formatDuration(locale: Locale, ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return t(locale, "duration.hours", { h, m });
  if (m > 0) return t(locale, "duration.minutes", { m, s });
  return t(locale, "duration.seconds", { s });
}

/** A percentage reading rounded for display. */
export const percent = (value: number): number => (Number.isFinite(value) ? Math.round(value) : 0);

/** An instant as people read a reset time: `2026-12-03 00:00 UTC` (budgets count in UTC). */
export const utcMinute = (at: number): string =>
  `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
