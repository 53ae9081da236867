import type { AuditPage, ScheduleView } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { channelMention, escapeClip, userMention } from "./mrkdwn.js";

const SLACK_USER = /^[UW][A-Z0-9]+$/;

/** A time as `2026-12-02 09:00` on the clock of `tz` (UTC when none). */
export function clockTime(at: number, tz = "UTC"): string {
  const f = new Intl.DateTimeFormat("sv-SE", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return f.format(new Date(at));
}

/** Someone as Slack shows them: a mention for a Slack user, the recorded name otherwise. */
const who = (id: string) => (SLACK_USER.test(id) ? userMention(id) : `\`${escapeClip(id, 60)}\``);

export const scheduleChannel = (locale: Locale, s: Pick<ScheduleView, "channelId">) =>
  s.channelId ? channelMention(s.channelId) : t(locale, "schedule.channel_none");

/** What a schedule's state reads as. */
function stateOf(locale: Locale, s: ScheduleView): string {
  if (s.status === "active") return t(locale, "schedule.state.active");
  return t(locale, s.pausedReason === "access_lost" ? "schedule.state.access_lost" : "schedule.state.paused");
}

/** `/codex schedule list`. */
export function scheduleListText(locale: Locale, schedules: ScheduleView[]): string {
  if (!schedules.length) return t(locale, "schedule.list.empty");
  const lines = schedules.map((s) =>
    t(locale, "schedule.list.line", {
      id: s.id,
      project: escapeClip(s.project, 80),
      cron: s.cron,
      tz: s.tz,
      state: stateOf(locale, s),
      next: s.status === "active" ? clockTime(s.nextFireAt, s.tz) : "—",
      creator: who(s.createdBy),
      channel: scheduleChannel(locale, s),
      prompt: escapeClip(s.prompt, 120),
    }),
  );
  return [t(locale, "schedule.list.title"), ...lines].join("\n");
}

/** One page of `/codex audit`: one line per event, oldest first. */
export function auditPageText(locale: Locale, page: AuditPage): string {
  if (!page.total) return t(locale, "audit.empty");
  const lines = page.events.map((e) => {
    const why = e.reason ? ` (${escapeClip(e.reason, 120)})` : "";
    const detail = e.detail ? ` — ${escapeClip(e.detail, 160)}` : "";
    return `\`${clockTime(e.at)}\` ${who(e.actor)} _${e.via}_ *${e.action}* ${escapeClip(e.target, 80)} → ${e.outcome}${why}${detail}`;
  });
  const out = [t(locale, "audit.title", { page: page.page, pages: page.pages, total: page.total }), ...lines];
  if (page.page < page.pages) out.push(t(locale, "audit.next", { n: page.page + 1 }));
  return out.join("\n");
}
