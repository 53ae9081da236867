import type { schedules as fr } from "../fr/schedules.js";
import type { Message, Params } from "../message.js";

const period = (p: Params) => (p.period === "monthly" ? "monthly" : "daily");
const whose = (p: Params) => (p.scope === "user" ? "of user {name}" : "of project {name}");

/** English messages of schedules and the audit trail (issue 21). */
export const schedules = {
  "cli.schedule.catch_up_invalid": "--catch-up must be once or skip (got {value})",
  "cli.schedule.unknown_command": "unknown schedule command: {name} (add, list, pause, resume or remove)",
  "command.schedule.syntax":
    '/codex schedule add <project> "<cron>" [--tz Europe/Paris] [--channel #c] [--catch-up once|skip] <prompt> | list [project] | pause|resume|remove <id>',
  "command.schedule.help":
    "Runs a prompt on a cron, as you: each firing starts a conversation in the channel.",
  "command.audit.syntax": "/codex audit [project] [--user @x] [--since 2026-12-01|7d] [--page N]",
  "command.audit.help": "Who changed what through codexpi, oldest first.",
  "reason.schedule_not_found": "there is no schedule {id} you may see",
  "reason.schedule_not_yours": "only its creator, its project's owner and admins change schedule {id}",
  "reason.schedule_cron_invalid": "`{cron}` is not a five-field cron expression ({detail})",
  "reason.schedule_cron_never": "`{cron}` never fires",
  "reason.schedule_tz_invalid": "`{tz}` is not a time zone (e.g. Europe/Paris)",
  "reason.schedule_channel_not_member":
    "a schedule posts only in a channel its creator is a member of, and its creator is not a member of this one",
  "reason.audit_since_invalid": "`{since}` is neither a date (2026-12-01) nor an age (7d, 12h)",
  "schedule.added":
    "Schedule `{id}` added in *{project}*: `{cron}` ({tz}), next firing {next}; its conversations start in {channel}, as you.",
  "schedule.paused": "Schedule `{id}` paused.",
  "schedule.resumed": "Schedule `{id}` resumed: next firing {next}.",
  "schedule.removed": "Schedule `{id}` removed.",
  "schedule.list.title": "*Schedules*",
  "schedule.list.empty": "No schedule.",
  "schedule.list.line":
    "`{id}` *{project}* `{cron}` ({tz}) — {state} — next {next} — by {creator} in {channel}: {prompt}",
  "schedule.state.active": "active",
  "schedule.state.paused": "paused",
  "schedule.state.access_lost": "paused (its creator lost the project)",
  "schedule.channel_none": "no channel",
  "schedule.skipped": "⏭ Schedule `{id}` ({project}, `{cron}`) skipped this firing: {why}",
  "schedule.skipped_over_budget": (p: Params) =>
    `⏭ Schedule \`{id}\` ({project}, \`{cron}\`) skipped this firing: the ${period(p)} budget ${whose(p)} is reached ({used} tokens used of {budget}); it resets at {resets}. The schedule stays active: it fires again at its next time once the budget allows (after the reset, or when an admin raises it).`,
  "schedule.paused_dm":
    "⏸ Your schedule `{id}` in *{project}* (`{cron}`) is paused: you may no longer prompt that project. Once you may again, `/codex schedule resume {id}`.",
  "audit.title": "*Audit* — page {page}/{pages}, {total} event(s)",
  "audit.empty": "No audit event matches.",
  "audit.next": "Next page: add `--page {n}`.",
  "cli.about.schedule": "Manages schedules: prompts run on a cron as their creator (here: the operator).",
  "cli.about.audit": "Prints the audit trail (admins' view), or exports it as JSON lines with --json.",
  "cli.schedule.added": "schedule {id} added in {project}: {cron} ({tz}), next firing {next}",
  "cli.schedule.done": "schedule {id}: {state}",
  "cli.schedule.none": "no schedule",
} satisfies Record<keyof typeof fr, Message>;
