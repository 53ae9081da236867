import { CLI_ACTOR, type CatchUp, type ScheduleView } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { args, cliLocale, out, UsageError, withApi } from "./context.js";

const ADD_OPTIONS = {
  tz: { type: "string" },
  channel: { type: "string" },
  "catch-up": { type: "string" },
} as const;

const line = (s: ScheduleView) =>
  [
    s.id,
    s.project,
    JSON.stringify(s.cron),
    s.tz,
    s.status + (s.pausedReason ? `(${s.pausedReason})` : ""),
    s.status === "active" ? new Date(s.nextFireAt).toISOString() : "-",
    s.createdBy,
    s.channelId ?? "-",
    s.prompt,
  ].join("\t");

/**
 * `codexpi schedule add PROJECT CRON PROMPT [--tz TZ] [--channel C…] [--catch-up once|skip]`,
 * `list [PROJECT]`, `pause|resume|remove ID`: the same use cases as `/codex schedule`, as the
 * operator (an admin; the firings' conversations are the operator's, posted in the channel).
 */
export async function run(argv: string[]): Promise<number> {
  const verb = argv[0];
  const rest = argv.slice(1);
  if (verb === "add") {
    const { positionals, values } = args(rest, ADD_OPTIONS, 3);
    const catchUp = values["catch-up"];
    if (catchUp !== undefined && catchUp !== "once" && catchUp !== "skip")
      throw new UsageError(t(cliLocale(), "cli.schedule.catch_up_invalid", { value: catchUp }));
    return withApi(async (api, locale) => {
      const [project, cron, prompt] = positionals as [string, string, string];
      const s = await api.schedules.add(CLI_ACTOR, {
        project,
        cron,
        prompt,
        tz: values.tz ?? null,
        channel: values.channel ?? null,
        catchUp: (catchUp as CatchUp) ?? null,
      });
      out(
        t(locale, "cli.schedule.added", {
          id: s.id,
          project: s.project,
          cron: s.cron,
          tz: s.tz,
          next: new Date(s.nextFireAt).toISOString(),
        }),
      );
    });
  }
  if (verb === "list") {
    const { positionals } = args(rest, {}, rest.length ? 1 : 0);
    return withApi(async (api, locale) => {
      const all = await api.schedules.list(CLI_ACTOR, positionals[0] ?? null);
      if (!all.length) out(t(locale, "cli.schedule.none"));
      for (const s of all) out(line(s));
    });
  }
  if (verb === "pause" || verb === "resume" || verb === "remove") {
    const { positionals } = args(rest, {}, 1);
    return withApi(async (api, locale) => {
      const s = await api.schedules[verb](CLI_ACTOR, positionals[0] as string);
      out(t(locale, "cli.schedule.done", { id: s.id, state: verb === "remove" ? "removed" : s.status }));
    });
  }
  throw new UsageError(t(cliLocale(), "cli.schedule.unknown_command", { name: verb ?? "" }));
}
