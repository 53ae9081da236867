import type { CatchUp } from "../engine/api/model.js";

/** `/codex schedule …` parsed. */
export type ScheduleCommand =
  | {
      kind: "schedule.add";
      project: string;
      cron: string;
      tz: string | null;
      channel: string | null;
      catchUp: CatchUp | null;
      prompt: string;
    }
  | { kind: "schedule.list"; project: string | null }
  | { kind: "schedule.pause" | "schedule.resume" | "schedule.remove"; id: string };

/** `/codex audit [project] [--user @x] [--since 2026-12-01|7d] [--page N]` parsed. */
export interface AuditCommand {
  kind: "audit";
  project: string | null;
  user: string | null;
  since: string | null;
  page: number;
}

type Usage = { kind: "usage"; topic: "schedule" | "audit" };

/** Words with where each ends in the text ("quoted strings" kept together, as tokenize does). */
function words(text: string): Array<{ word: string; end: number }> {
  const out: Array<{ word: string; end: number }> = [];
  const re = /"([^"]*)"|“([^”]*)”|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text))
    out.push({ word: m[1] ?? m[2] ?? m[3] ?? "", end: re.lastIndex });
  return out;
}

const channelOf = (token: string) =>
  (/^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token) ?? /^([CG][A-Z0-9]{2,})$/.exec(token))?.[1] ?? null;
const userOf = (token: string) =>
  (/^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token) ??
    /^([UW][A-Z0-9]{2,}|cli:\S+|schedule:\S+|agent:\S+)$/.exec(token))?.[1] ?? null;

/** Parses the text after `schedule` (raw: the prompt keeps its own quotes and spacing). */
export function parseSchedule(text: string): ScheduleCommand | Usage {
  const usage: Usage = { kind: "usage", topic: "schedule" };
  const w = words(text);
  const verb = w[0]?.word.toLowerCase();
  if (verb === "list") return w.length <= 2 ? { kind: "schedule.list", project: w[1]?.word ?? null } : usage;
  if (verb === "pause" || verb === "resume" || verb === "remove")
    return w.length === 2 ? { kind: `schedule.${verb}`, id: (w[1] as { word: string }).word } : usage;
  if (verb !== "add" || w.length < 4) return usage;
  const cmd = {
    kind: "schedule.add" as const,
    project: (w[1] as { word: string }).word,
    cron: (w[2] as { word: string }).word,
    tz: null as string | null,
    channel: null as string | null,
    catchUp: null as CatchUp | null,
    prompt: "",
  };
  let i = 3;
  for (; i < w.length && w[i]?.word.startsWith("--"); i += 2) {
    const flag = w[i]?.word;
    const value = w[i + 1]?.word;
    if (value === undefined) return usage;
    if (flag === "--tz") cmd.tz = value;
    else if (flag === "--channel" && channelOf(value)) cmd.channel = channelOf(value);
    else if (flag === "--catch-up" && (value === "once" || value === "skip")) cmd.catchUp = value;
    else return usage;
  }
  cmd.prompt = text.slice(w[i - 1]?.end ?? 0).trim();
  return cmd.prompt && cmd.cron.split(/\s+/).length >= 1 ? cmd : usage;
}

/** Parses the text after `audit`. */
export function parseAudit(text: string): AuditCommand | Usage {
  const usage: Usage = { kind: "usage", topic: "audit" };
  const w = words(text).map((x) => x.word);
  const cmd: AuditCommand = { kind: "audit", project: null, user: null, since: null, page: 1 };
  for (let i = 0; i < w.length; i++) {
    const token = w[i] as string;
    const value = w[i + 1];
    if (!token.startsWith("--")) {
      if (cmd.project !== null) return usage;
      cmd.project = token;
      continue;
    }
    if (value === undefined) return usage;
    if (token === "--user" && userOf(value)) cmd.user = userOf(value);
    else if (token === "--since") cmd.since = value;
    else if (token === "--page" && /^\d{1,4}$/.test(value) && Number(value) > 0) cmd.page = Number(value);
    else return usage;
    i++;
  }
  return cmd;
}
